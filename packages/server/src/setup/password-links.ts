import type { Db } from '../db/database.ts'
import { linkHash, newLinkValue } from './one-time-links.ts'

/** How long a link to choose a password works. */
export const PASSWORD_LINK_LIFETIME_MS = 24 * 60 * 60 * 1000

/** The person a live password link is for. */
export interface PasswordLinkPerson {
  workspaceId: string
  personId: string
  name: string
  email: string
}

/**
 * A single-use link for a person to choose their password (`/set-password/:value`), shown once
 * to whoever made it; only its hash is stored. Call it in the transaction that made the person.
 */
export async function issuePasswordLink(
  trx: Db,
  input: { workspaceId: string; personId: string; now: Date },
): Promise<string> {
  const value = newLinkValue()
  await trx
    .insertInto('password_links')
    .values({
      workspace_id: input.workspaceId,
      id_hash: linkHash(value) as Buffer,
      person_id: input.personId,
      created_at: input.now,
      expires_at: new Date(input.now.getTime() + PASSWORD_LINK_LIFETIME_MS),
      used_at: null,
    })
    .execute()
  return value
}

/** The person of a link that still works (unused, unexpired), or null. */
export async function findPasswordLink(
  db: Db,
  value: unknown,
  now: Date,
): Promise<PasswordLinkPerson | null> {
  const hash = linkHash(value)
  if (!hash) return null
  const row = await db
    .selectFrom('password_links as l')
    .innerJoin('people as p', (join) =>
      join.onRef('p.workspace_id', '=', 'l.workspace_id').onRef('p.id', '=', 'l.person_id'),
    )
    .select(['l.workspace_id', 'l.person_id', 'p.name', 'p.email'])
    .where('l.id_hash', '=', hash)
    .where('l.used_at', 'is', null)
    .where('l.expires_at', '>', now)
    .executeTakeFirst()
  return row
    ? { workspaceId: row.workspace_id, personId: row.person_id, name: row.name, email: row.email }
    : null
}

/**
 * Spends a link, once: of two uses at the same time only one finds it unused (the row is locked
 * by the first update until its transaction ends). Its person, or null when it no longer works.
 */
export async function usePasswordLink(
  trx: Db,
  value: unknown,
  now: Date,
): Promise<PasswordLinkPerson | null> {
  const hash = linkHash(value)
  if (!hash) return null
  const used = await trx
    .updateTable('password_links')
    .set({ used_at: now })
    .where('id_hash', '=', hash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning(['workspace_id', 'person_id'])
    .executeTakeFirst()
  if (!used) return null
  const person = await trx
    .selectFrom('people')
    .select(['name', 'email'])
    .where('workspace_id', '=', used.workspace_id)
    .where('id', '=', used.person_id)
    .executeTakeFirstOrThrow()
  return { workspaceId: used.workspace_id, personId: used.person_id, ...person }
}

/** Deletes links that were used or expired a day ago or more (the sweeper's job). */
export async function sweepPasswordLinks(db: Db, now: Date): Promise<void> {
  const before = new Date(now.getTime() - 24 * 60 * 60 * 1000)
  await db
    .deleteFrom('password_links')
    .where((eb) => eb.or([eb('used_at', '<', before), eb('expires_at', '<', before)]))
    .execute()
}

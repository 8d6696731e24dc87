import type { Db } from '../db/database.ts'
import { linkHash, newLinkValue } from './one-time-links.ts'

/** How long the first-run page's link printed at a start works. */
export const SETUP_TOKEN_LIFETIME_MS = 24 * 60 * 60 * 1000

/**
 * A new token for the first-run page (`/setup?token=…`), printed by a server that starts with no
 * workspace. Stored as its hash in the database, so every instance of it accepts the link.
 */
export async function issueSetupToken(db: Db, now: Date): Promise<string> {
  const value = newLinkValue()
  await db
    .insertInto('setup_tokens')
    .values({
      id_hash: linkHash(value) as Buffer,
      created_at: now,
      expires_at: new Date(now.getTime() + SETUP_TOKEN_LIFETIME_MS),
    })
    .execute()
  return value
}

/** Whether a token opens the first-run page: one we issued, not yet expired. */
export async function isSetupToken(db: Db, value: unknown, now: Date): Promise<boolean> {
  const hash = linkHash(value)
  if (!hash) return false
  const row = await db
    .selectFrom('setup_tokens')
    .select('expires_at')
    .where('id_hash', '=', hash)
    .executeTakeFirst()
  return !!row && row.expires_at > now
}

/** Ends every first-run link: called in the transaction that makes the first workspace. */
export async function endSetupTokens(trx: Db): Promise<void> {
  await trx.deleteFrom('setup_tokens').execute()
}

/** Deletes first-run tokens that expired a day ago or more (the sweeper's job). */
export async function sweepSetupTokens(db: Db, now: Date): Promise<void> {
  const before = new Date(now.getTime() - 24 * 60 * 60 * 1000)
  await db.deleteFrom('setup_tokens').where('expires_at', '<', before).execute()
}

import { createHash, randomBytes } from 'node:crypto'
import type { Role } from '../access/principal.ts'
import type { Db } from '../db/database.ts'

/** A session ends this long after its last request (docs/dashboard.md, "Sessions"). */
export const IDLE_LIFETIME_MS = 12 * 60 * 60 * 1000
/** A session ends this long after sign-in, however busy it is. */
export const ABSOLUTE_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000
// `last_seen_at` is written at most once a minute: the idle end needs no finer grain.
const SEEN_GRANULARITY_MS = 60_000
// 32 random bytes in base64url: what the cookie carries, and all it may carry.
const SESSION_VALUE = /^[A-Za-z0-9_-]{43}$/

/** A live session: who is signed in, and the hash that names the session in the table. */
export interface WebSession {
  readonly idHash: Buffer
  readonly workspaceId: string
  readonly personId: string
  readonly role: Role
  readonly personName: string
  readonly workspaceName: string
  /** The workspace's ACL epoch read with the session: the principal cache's key. */
  readonly aclEpoch: string
}

/** SHA-256 of a cookie's value: the only form in which a session id is stored. */
export function hashSessionValue(value: string): Buffer {
  return createHash('sha256').update(value).digest()
}

/**
 * Starts a session for a person whose password was just verified. The value is new at every
 * sign-in (no fixation: whatever id a visitor arrived with is never promoted); only its hash is
 * stored, so the returned value is the one copy, sent once in the cookie.
 */
export async function startSession(
  db: Db,
  input: { workspaceId: string; personId: string; now: Date },
): Promise<string> {
  const value = randomBytes(32).toString('base64url')
  await db
    .insertInto('web_sessions')
    .values({
      workspace_id: input.workspaceId,
      id_hash: hashSessionValue(value),
      person_id: input.personId,
      created_at: input.now,
      last_seen_at: input.now,
      expires_at: new Date(input.now.getTime() + ABSOLUTE_LIFETIME_MS),
    })
    .execute()
  return value
}

/**
 * The live session a cookie's value names, or null: malformed, unknown, ended, past either
 * lifetime, or of a person who no longer exists or was deactivated. Read on every request, so
 * signing out or removing a person takes effect at once on every instance.
 */
export async function findSession(db: Db, value: string, now: Date): Promise<WebSession | null> {
  if (!SESSION_VALUE.test(value)) return null
  const idHash = hashSessionValue(value)
  const row = await db
    .selectFrom('web_sessions as s')
    .innerJoin('people as p', (join) =>
      join.onRef('p.workspace_id', '=', 's.workspace_id').onRef('p.id', '=', 's.person_id'),
    )
    .innerJoin('workspaces as w', 'w.id', 's.workspace_id')
    .select([
      's.workspace_id',
      's.person_id',
      's.last_seen_at',
      's.expires_at',
      's.ended_at',
      'p.role',
      'p.deactivated_at',
      'p.name as person_name',
      'w.name as workspace_name',
      'w.acl_epoch',
    ])
    .where('s.id_hash', '=', idHash)
    .executeTakeFirst()
  // Deactivation ends a person's sessions; a deactivated person's session is refused even so.
  if (!row || row.ended_at !== null || row.expires_at <= now || row.deactivated_at !== null)
    return null
  if (row.last_seen_at.getTime() + IDLE_LIFETIME_MS <= now.getTime()) return null
  if (now.getTime() - row.last_seen_at.getTime() > SEEN_GRANULARITY_MS) {
    await db
      .updateTable('web_sessions')
      .set({ last_seen_at: now })
      .where('workspace_id', '=', row.workspace_id)
      .where('id_hash', '=', idHash)
      .execute()
  }
  return {
    idHash,
    workspaceId: row.workspace_id,
    personId: row.person_id,
    role: row.role as Role,
    personName: row.person_name,
    workspaceName: row.workspace_name,
    aclEpoch: String(row.acl_epoch),
  }
}

/** Ends the session a cookie's value names (sign-out); unknown values change nothing. */
export async function endSession(db: Db, value: string, now: Date): Promise<void> {
  if (!SESSION_VALUE.test(value)) return
  await db
    .updateTable('web_sessions')
    .set({ ended_at: now })
    .where('id_hash', '=', hashSessionValue(value))
    .where('ended_at', 'is', null)
    .execute()
}

/** Ends every session of a person: a new password signs out every browser that had the old one. */
export async function endSessionsOf(
  db: Db,
  input: { workspaceId: string; personId: string; now: Date },
): Promise<void> {
  await db
    .updateTable('web_sessions')
    .set({ ended_at: input.now })
    .where('workspace_id', '=', input.workspaceId)
    .where('person_id', '=', input.personId)
    .where('ended_at', 'is', null)
    .execute()
}

/** Deletes sessions that ended or expired a day ago or more (the sweeper's job). */
export async function sweepWebSessions(db: Db, now: Date): Promise<void> {
  const before = new Date(now.getTime() - 24 * 60 * 60 * 1000)
  await db
    .deleteFrom('web_sessions')
    .where((eb) =>
      eb.or([
        eb('ended_at', '<', before),
        eb('expires_at', '<', before),
        eb('last_seen_at', '<', new Date(before.getTime() - IDLE_LIFETIME_MS)),
      ]),
    )
    .execute()
}

import { sql } from 'kysely'
import { emailKey } from '../access/email-password-hashes.ts'
import type { Db } from '../db/database.ts'
import { endSessionsOf } from './web-session.ts'

// Setting an email's one password (access/email-password-hashes.ts reads it).

/**
 * Gives an email a new password: every person with it, in every workspace, carries the hash, and
 * their dashboard sessions end. Run it in a transaction. Returns who now signs in with it.
 */
export async function setEmailPassword(
  trx: Db,
  input: { email: string; hash: string; now: Date },
): Promise<{ id: string; workspace_id: string }[]> {
  const people = await trx
    .updateTable('people')
    .set({ password_hash: input.hash })
    .where(sql`lower(email)`, '=', emailKey(input.email))
    .returning(['id', 'workspace_id'])
    .execute()
  for (const person of people)
    await endSessionsOf(trx, {
      workspaceId: person.workspace_id,
      personId: person.id,
      now: input.now,
    })
  return people.sort((a, b) => a.workspace_id.localeCompare(b.workspace_id))
}

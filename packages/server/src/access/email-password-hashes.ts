import { sql } from 'kysely'
import type { Db } from '../db/database.ts'

/*
 * One password per email across the server's workspaces (docs/dashboard.md, "Signing in"): every
 * person with an email who can sign in carries the same hash, so a sign-in verifies one hash
 * whatever the number of workspaces, and opens each workspace whose person carries it. Here, how
 * that hash is read; setting it, which ends sessions, is the dashboard's (web/email-passwords.ts).
 */

/** An email as people are looked up by it: trimmed, lower case. */
export function emailKey(email: string): string {
  return email.trim().toLowerCase()
}

/**
 * The hash each email signs in with: the one most of its people carry. Data from before one
 * password per email may give an email several; then the oldest person's among the most shared
 * wins, and people with another hash cannot sign in until the password is set again.
 */
export async function emailPasswordHashes(
  db: Db,
  emails: readonly string[],
): Promise<Map<string, string>> {
  const keys = [...new Set(emails.map(emailKey))]
  const found = new Map<string, string>()
  if (keys.length === 0) return found
  const rows = await db
    .selectFrom('people')
    .select([
      sql<string>`lower(email)`.as('email'),
      'password_hash',
      sql<string>`count(*)`.as('holders'),
      sql<Date>`min(created_at)`.as('first_at'),
      sql<string>`min(id)`.as('first_id'),
    ])
    .where(sql<boolean>`lower(email) = any(${keys}::text[])`)
    .where('password_hash', 'is not', null)
    .groupBy([sql`lower(email)`, 'password_hash'])
    .orderBy(sql`count(*)`, 'desc')
    .orderBy(sql`min(created_at)`)
    .orderBy(sql`min(id)`)
    .execute()
  for (const row of rows)
    if (!found.has(row.email)) found.set(row.email, row.password_hash as string)
  return found
}

/** The hash one email signs in with, or null when none of its people has a password. */
export async function emailPasswordHash(db: Db, email: string): Promise<string | null> {
  return (await emailPasswordHashes(db, [email])).get(emailKey(email)) ?? null
}

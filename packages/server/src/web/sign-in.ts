import { sql } from 'kysely'
import { emailKey, emailPasswordHash } from '../access/email-password-hashes.ts'
import { type RateLimitStore, SIGN_IN_BUDGETS } from '../api/rate-limit-store.ts'
import type { Db } from '../db/database.ts'
import { isPasswordHash, verifyPassword } from '../lib/password.ts'

/** A person whose email and password matched: one per workspace they can sign in to. */
export interface SignInMatch {
  personId: string
  workspaceId: string
  workspaceName: string
  role: string
}

// What a password is compared against when the email has none: the hash of a random password
// nobody kept, with the parameters of real ones, so that an unknown address costs the same one
// computation as a wrong password and response times do not tell which addresses exist.
const DECOY_HASH =
  'scrypt$131072$8$1$xlAof5QaWDyTzyUttrdO5g==$tJwKxgt+uvT84XbkjTTdXzoICLat6fgPgTltTKSYmSc='
// The most workspaces one sign-in offers to choose from.
const MOST_WORKSPACES = 20

/**
 * The people an email and password sign in as. An email has one password across the server's
 * workspaces (email-passwords.ts): exactly one hash is computed, whatever the email, and every
 * person of the email carrying the verified hash matches. A client registered in one workspace
 * (`clientWorkspaceId`) may only be authorized by its people.
 */
export async function matchSignIn(
  db: Db,
  email: string,
  password: string,
  clientWorkspaceId: string | null,
): Promise<SignInMatch[]> {
  const found = await emailPasswordHash(db, email)
  const hash = found && isPasswordHash(found) ? found : null
  const verified = await verifyPassword(password, hash ?? DECOY_HASH)
  if (!hash || !verified || email.length === 0 || password.length === 0) return []
  let query = db
    .selectFrom('people as p')
    .innerJoin('workspaces as w', 'w.id', 'p.workspace_id')
    .select([
      'p.id as personId',
      'p.workspace_id as workspaceId',
      'w.name as workspaceName',
      'p.role',
    ])
    .where(sql`lower(p.email)`, '=', emailKey(email))
    .where('p.password_hash', '=', hash)
    // A deactivated person keeps the email's password for the workspaces they are still in.
    .where('p.deactivated_at', 'is', null)
    .orderBy('w.name')
    .orderBy('w.id')
    .limit(MOST_WORKSPACES)
  if (clientWorkspaceId !== null) query = query.where('p.workspace_id', '=', clientWorkspaceId)
  return query.execute()
}

/**
 * Counts a sign-in attempt against the email's and the client address's budgets; false when
 * either is spent for this minute. Every attempt counts, not only failures, so guessing is slow
 * whatever the outcome.
 */
export async function allowSignInAttempt(
  store: RateLimitStore,
  input: { email: string; ip: string; perMinute: number; now: Date },
): Promise<boolean> {
  const windowStart = new Date(Math.floor(input.now.getTime() / 60_000) * 60_000)
  const subject = (tokenId: string) => ({
    workspaceId: SIGN_IN_BUDGETS,
    tokenId,
    kind: 'write' as const,
  })
  const [byEmail, byIp] = await Promise.all([
    store.hit(subject(`email:${emailKey(input.email)}`), windowStart, input.perMinute),
    store.hit(subject(`ip:${input.ip}`), windowStart, input.perMinute),
  ])
  return byEmail <= input.perMinute && byIp <= input.perMinute
}

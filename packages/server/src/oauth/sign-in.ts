import { sql } from 'kysely'
import type { Db } from '../db/database.ts'
import type { RateLimitStore } from '../http/rate-limit-store.ts'
import { hashPassword, verifyPassword } from '../lib/password.ts'

/** A person whose email and password matched: one per workspace they can sign in to. */
export interface SignInMatch {
  personId: string
  workspaceId: string
  workspaceName: string
  role: string
}

// Compared against when no one has the email, so that an unknown address costs as much time as a
// wrong password and response times do not tell which addresses exist.
let decoyHash: Promise<string> | undefined

/**
 * The people an email and password sign in as. The same email in several workspaces is several
 * people, each with a password of their own; all whose password matches are returned. A client
 * registered in one workspace (`clientWorkspaceId`) may only be authorized by its people.
 */
export async function matchSignIn(
  db: Db,
  email: string,
  password: string,
  clientWorkspaceId: string | null,
): Promise<SignInMatch[]> {
  let query = db
    .selectFrom('people as p')
    .innerJoin('workspaces as w', 'w.id', 'p.workspace_id')
    .select([
      'p.id as personId',
      'p.workspace_id as workspaceId',
      'w.name as workspaceName',
      'p.role',
      'p.password_hash',
    ])
    .where(sql`lower(p.email)`, '=', email.trim().toLowerCase())
    .where('p.password_hash', 'is not', null)
    .orderBy('w.name')
    .limit(20)
  if (clientWorkspaceId !== null) query = query.where('p.workspace_id', '=', clientWorkspaceId)
  const people = await query.execute()
  if (people.length === 0) {
    decoyHash ??= hashPassword('decoy password')
    await verifyPassword(password, await decoyHash)
    return []
  }
  const matches: SignInMatch[] = []
  for (const person of people) {
    if (await verifyPassword(password, person.password_hash as string)) {
      matches.push({
        personId: person.personId,
        workspaceId: person.workspaceId,
        workspaceName: person.workspaceName,
        role: person.role,
      })
    }
  }
  return matches
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
    workspaceId: 'oauth-sign-in',
    tokenId,
    kind: 'write' as const,
  })
  const [byEmail, byIp] = await Promise.all([
    store.hit(subject(`email:${input.email.trim().toLowerCase()}`), windowStart, input.perMinute),
    store.hit(subject(`ip:${input.ip}`), windowStart, input.perMinute),
  ])
  return byEmail <= input.perMinute && byIp <= input.perMinute
}

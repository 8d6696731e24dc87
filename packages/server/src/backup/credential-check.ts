import { sql } from 'kysely'
import { resolveTokenHash } from '../access/authenticate-token.ts'
import { emailPasswordHashes } from '../access/email-password-hashes.ts'
import type { Db } from '../db/database.ts'
import { isPasswordHash } from '../lib/password.ts'
import { SecretBox } from '../lib/secret-box.ts'
import { secretContext } from '../webhooks/endpoint-secrets.ts'

/** Whether the moved credentials work as they did. */
export interface CredentialCheck {
  /** API keys and workspace tokens, and those that resolve on the target exactly as before. */
  readonly keys: number
  readonly keysAlike: number
  /** Emails with a password, and those that sign in on the target with the same hash. */
  readonly passwords: number
  readonly passwordsAlike: number
  /** Webhook signing secrets, and those the server's secret opens on the target; null unchecked. */
  readonly webhookSecrets: { readonly sealed: number; readonly opened: number } | null
}

/**
 * Checks, with the server's own code, that every API key and workspace token resolves on the
 * target to what it resolves to on the source (the same actor, scopes, fence and liveness, or the
 * same refusal) at one instant, found by its stored hash since no key itself is kept; that each
 * email signs in with the same password hash (so the same password); and, given the server's
 * secret, that every webhook signing secret opens with it. Changes nothing.
 */
export async function checkCredentials(
  source: Db,
  target: Db,
  now: Date,
  secret: Buffer | undefined,
): Promise<CredentialCheck> {
  const hashes = await source.selectFrom('tokens').select('secret_hash').execute()
  let keysAlike = 0
  for (const { secret_hash } of hashes) {
    const before = await resolveTokenHash(source, secret_hash, now)
    const after = await resolveTokenHash(target, secret_hash, now)
    if (comparable(before) === comparable(after)) keysAlike++
  }
  const emails = await sql<{ email: string }>`
    select distinct lower(email) as email from people
    where email is not null and password_hash is not null`.execute(source)
  const list = emails.rows.map((row) => row.email)
  const [sourceHashes, targetHashes] = [
    await emailPasswordHashes(source, list),
    await emailPasswordHashes(target, list),
  ]
  const passwordsAlike = list.filter((email) => {
    const hash = sourceHashes.get(email)
    return hash !== undefined && isPasswordHash(hash) && targetHashes.get(email) === hash
  }).length
  return {
    keys: hashes.length,
    keysAlike,
    passwords: list.length,
    passwordsAlike,
    webhookSecrets: secret ? await openWebhookSecrets(target, secret) : null,
  }
}

// A resolution as text, its scopes in order and its fields named.
function comparable(resolved: Awaited<ReturnType<typeof resolveTokenHash>>): string {
  if (typeof resolved === 'string') return resolved
  return JSON.stringify(resolved.identity, (_key, value) =>
    value instanceof Set ? [...value].sort() : value,
  )
}

async function openWebhookSecrets(
  db: Db,
  secret: Buffer,
): Promise<{ sealed: number; opened: number }> {
  const box = new SecretBox(secret)
  const endpoints = await db
    .selectFrom('webhook_endpoints')
    .select(['workspace_id', 'id', 'secret_sealed', 'previous_secret_sealed'])
    .execute()
  let sealed = 0
  let opened = 0
  for (const endpoint of endpoints) {
    const context = secretContext(endpoint.workspace_id, endpoint.id)
    for (const value of [endpoint.secret_sealed, endpoint.previous_secret_sealed]) {
      if (value === null) continue
      sealed++
      try {
        box.open(value, context)
        opened++
      } catch {
        // Counted as not opened: another secret sealed it.
      }
    }
  }
  return { sealed, opened }
}

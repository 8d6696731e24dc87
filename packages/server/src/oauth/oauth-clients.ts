import { hashSecret, newSecret, SECRET_PREFIX } from '../access/secrets.ts'
import type { Db } from '../db/database.ts'
import { newId } from '../lib/ids.ts'

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost'])

function isLoopbackHttp(url: URL): boolean {
  return url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname)
}

/**
 * Why a redirect URI cannot be registered, or null when it can (RFC 8252, OAuth 2.1): absolute,
 * no fragment; https, or http on a loopback address for native apps, or a private-use scheme
 * in reverse-domain form (`com.example.app:/callback`).
 */
export function redirectUriProblem(uri: string): string | null {
  const url = URL.parse(uri)
  if (!url) return 'must be an absolute URL'
  if (url.hash || uri.includes('#')) return 'must not contain a fragment'
  if (url.protocol === 'https:' || isLoopbackHttp(url)) return null
  if (url.protocol === 'http:') return 'must use https (http only on 127.0.0.1, [::1] or localhost)'
  if (!url.protocol.slice(0, -1).includes('.')) {
    return 'must use https, loopback http, or a reverse-domain private-use scheme'
  }
  return null
}

/**
 * `native` for public clients that redirect only to loopback or private-use URIs: such apps may
 * use any port on a loopback redirect (RFC 8252 §7.3). Everything else is `web`, where the
 * redirect URI must match exactly.
 */
export function applicationTypeOf(
  isPublic: boolean,
  redirectUris: readonly string[],
): 'web' | 'native' {
  const native = redirectUris.every((uri) => {
    const url = URL.parse(uri)
    return url !== null && (isLoopbackHttp(url) || !url.protocol.startsWith('http'))
  })
  return isPublic && native ? 'native' : 'web'
}

/** A new client's credentials: the secret only for confidential clients, shown once. */
export interface IssuedClient {
  client_id: string
  client_secret?: string
}

/** Registers a client made by an operator (`workgraph oauth-client create`). */
export async function createOAuthClient(
  db: Db,
  input: { name: string; redirectUris: string[]; public: boolean; workspaceId: string | null },
): Promise<IssuedClient> {
  const id = newId('oauthClient')
  const secret = input.public ? undefined : newSecret(SECRET_PREFIX.oauthClient)
  await db
    .insertInto('oauth_clients')
    .values({
      workspace_id: input.workspaceId,
      id,
      name: input.name,
      redirect_uris: input.redirectUris,
      public: input.public,
      secret_hash: secret ? hashSecret(secret) : null,
      application_type: applicationTypeOf(input.public, input.redirectUris),
      source: 'cli',
    })
    .execute()
  return secret ? { client_id: id, client_secret: secret } : { client_id: id }
}

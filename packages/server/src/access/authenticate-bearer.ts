import type { Db } from '../db/database.ts'
import { authenticateOAuthToken } from './authenticate-oauth-token.ts'
import { authenticateToken, type TokenFailure, type TokenIdentity } from './authenticate-token.ts'
import { SECRET_PREFIX } from './secrets.ts'

/**
 * Resolves any bearer token the API accepts to its actor: OAuth access tokens live in the
 * authorization server's table, API keys and workspace tokens in ours. `resource` is this API's
 * identifier, the audience OAuth tokens must be issued for.
 */
export function authenticateBearer(
  db: Db,
  token: string,
  now: Date,
  resource: string,
): Promise<TokenIdentity | TokenFailure> {
  return token.startsWith(SECRET_PREFIX.oauthAccessToken)
    ? authenticateOAuthToken(db, token, now, resource)
    : authenticateToken(db, token, now)
}

import { timingSafeEqual } from 'node:crypto'
import type { FastifyBaseLogger } from 'fastify'
import Provider, { type Configuration, errors, type KoaContextWithOIDC } from 'oidc-provider'
import { hashSecret, newSecret, SECRET_PREFIX } from '../access/secrets.ts'
import { SCOPE_ALIASES, SCOPES } from '../catalogue/scopes.ts'
import type { Db } from '../db/database.ts'
import type { OAuthKeys } from '../lib/derived-keys.ts'
import { newId } from '../lib/ids.ts'
import type { SecretBox } from '../lib/secret-box.ts'
import { WEB_PAGE_HEADERS } from '../web/page-headers.ts'
import { ArtifactAdapter } from './artifact-adapter.ts'
import { ClientAdapter } from './client-adapter.ts'
import { interactionErrorPage } from './interaction/interaction-error.view.ts'
import { advertiseOAuthOnly } from './oauth-metadata.ts'
import { OAUTH_ROUTES } from './oauth-routes.ts'

/** What the authorization server is built from. */
export interface OAuthProviderOptions {
  db: Db
  /** This API's identifier (its base URL without a trailing slash): the issuer, and the one
   * resource its tokens are for. */
  issuer: string
  keys: OAuthKeys
  /** Seals the one id that must be read back: a browser session's, found by its uid. */
  secrets: SecretBox
  dynamicRegistration: boolean
  registrationToken: string | undefined
  logger: FastifyBaseLogger
}

/**
 * `project_picker=1` on an authorization request: the person picks the projects the app may open
 * (docs/oauth.md, "Picking projects"). Any other value asks for nothing.
 */
export const PROJECT_PICKER_ON = '1'

/** Every scope a client may ask for: the catalogue and its aliases. */
export const REQUESTABLE_SCOPES = [...Object.keys(SCOPES), ...Object.keys(SCOPE_ALIASES)]

const DAY = 24 * 60 * 60

/**
 * Builds the oidc-provider instance. Every setting that differs from the library's defaults is
 * here with its reason; docs/oauth.md, "What the server supports", says what each guards against.
 */
export function createOAuthProvider(options: OAuthProviderOptions): Provider {
  const { db, issuer } = options
  const clients = new ClientAdapter(db)
  const configuration: Configuration = {
    adapter: (model: string) =>
      model === 'Client' ? clients : new ArtifactAdapter(db, model, options.secrets),
    routes: OAUTH_ROUTES,
    // Plain OAuth 2.0: the code flow only, with PKCE always (only S256 is implemented).
    responseTypes: ['code'],
    pkce: { required: () => true },
    scopes: REQUESTABLE_SCOPES,
    extraParams: ['project_picker'],
    claims: { openid: ['sub'] },
    clientDefaults: {
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic',
      id_token_signed_response_alg: 'EdDSA',
    },
    clientAuthMethods: ['none', 'client_secret_basic', 'client_secret_post'],
    enabledJWA: { idTokenSigningAlgValues: ['EdDSA'] },
    jwks: { keys: [options.keys.signingKey as never] },
    cookies: { keys: options.keys.cookieKeys },
    // A registered redirect URI must always be sent, and must match byte for byte.
    allowOmittingSingleRegisteredRedirectUri: false,
    ttl: {
      AccessToken: 3600,
      AuthorizationCode: 60,
      RefreshToken: 30 * DAY,
      // The grant is the remembered consent; it outlives any one refresh token.
      Grant: 365 * DAY,
      Interaction: 600,
      Session: DAY,
    },
    rotateRefreshToken: true,
    // By default refresh tokens need `offline_access`, and tokens die with the sign-in session of
    // the browser; an app acting for a user needs neither.
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    expiresWithSession: async () => false,
    features: {
      devInteractions: { enabled: false },
      dPoP: { enabled: false },
      introspection: { enabled: false },
      pushedAuthorizationRequests: { enabled: false },
      rpInitiatedLogout: { enabled: false },
      userinfo: { enabled: false },
      // A client revokes only its own tokens (RFC 7009 §2.1).
      revocation: {
        enabled: true,
        allowedPolicy: async (_ctx, client, token) => token.clientId === client.clientId,
      },
      registration: {
        enabled: options.dynamicRegistration,
        initialAccessToken: options.registrationToken ?? false,
        issueRegistrationAccessToken: false,
        idFactory: () => newId('oauthClient'),
        secretFactory: () => newSecret(SECRET_PREFIX.oauthClient),
      },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => issuer,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, resource) => {
          if (resource !== issuer) throw new errors.InvalidTarget()
          return {
            scope: REQUESTABLE_SCOPES.join(' '),
            audience: issuer,
            accessTokenTTL: 3600,
            accessTokenFormat: 'opaque',
          }
        },
      },
    },
    interactions: { url: (_ctx, interaction) => `/oauth/interaction/${interaction.uid}` },
    findAccount: async (_ctx, sub) => {
      const person = await db
        .selectFrom('people')
        .select('id')
        .where('id', '=', sub)
        .executeTakeFirst()
      return person ? { accountId: person.id, claims: () => ({ sub: person.id }) } : undefined
    },
    // Consent is remembered per person and client for the life of the grant, not per browser.
    loadExistingGrant: async (ctx: KoaContextWithOIDC) => {
      const provider = ctx.oidc.provider
      const chosen = ctx.oidc.result?.consent?.grantId
      if (chosen) return provider.Grant.find(chosen)
      // An app asking the person to pick projects always gets the consent page, and a grant of
      // its own: remembered consent never stands in for a choice the person has not made.
      if (ctx.oidc.params?.project_picker === PROJECT_PICKER_ON) return undefined
      const accountId = ctx.oidc.session?.accountId
      const clientId = ctx.oidc.client?.clientId
      if (!accountId || !clientId) return undefined
      // The grant this browser approved last comes first: a person may hold several grants of one
      // app (one per project pick), and which of them expires last is a matter of milliseconds.
      const approvedHere = ctx.oidc.session?.grantIdFor(clientId)
      const here = approvedHere ? await provider.Grant.find(approvedHere) : undefined
      if (here?.accountId === accountId) return here
      const row = await db
        .selectFrom('oauth_artifacts')
        .select('grant_id')
        .where('model', '=', 'Grant')
        .where('account_id', '=', accountId)
        .where('client_id', '=', clientId)
        .orderBy('expires_at', 'desc')
        .orderBy('grant_id')
        .executeTakeFirst()
      return row?.grant_id ? provider.Grant.find(row.grant_id) : undefined
    },
    clientBasedCORS: (_ctx, origin, client) =>
      client.redirectUris?.some((uri) => URL.parse(uri)?.origin === origin) ?? false,
    // The error page of the sign-in and consent pages, with their headers.
    renderError: async (ctx, out) => {
      ctx.set(WEB_PAGE_HEADERS)
      ctx.body = interactionErrorPage(out.error, out.error_description)
    },
  }
  const provider = new Provider(issuer, configuration)
  // Behind TLS termination the issuer is https while this process speaks http.
  provider.proxy = issuer.startsWith('https:')
  useOurSecretFormats(provider)
  advertiseOAuthOnly(provider)
  provider.on('server_error', (_ctx, error) => options.logger.error({ err: error }, 'oauth error'))
  return provider
}

/**
 * Token values carry the documented prefixes (`wg_at_`, `wg_rt_`, docs/api.md) so secret scanners
 * can find leaked ones, grants get ids like every other id here, and client secrets are compared by
 * hash because only the hash is stored. These four methods are the library's seams for that.
 */
function useOurSecretFormats(provider: Provider): void {
  type TokenModel = { prototype: { generateTokenId(): string } }
  const prefixed = (model: TokenModel, prefix: string) => {
    const original = model.prototype.generateTokenId
    model.prototype.generateTokenId = function (this: unknown) {
      original.call(this) // sets the token's format as a side effect
      return newSecret(prefix)
    }
  }
  prefixed(provider.AccessToken as unknown as TokenModel, SECRET_PREFIX.oauthAccessToken)
  prefixed(provider.RefreshToken as unknown as TokenModel, SECRET_PREFIX.oauthRefreshToken)
  ;(provider.Grant as unknown as TokenModel).prototype.generateTokenId = () => newId('oauthGrant')
  provider.Client.prototype.compareClientSecret = function (
    this: { clientSecret?: string },
    actual: string,
  ) {
    const stored = Buffer.from(this.clientSecret ?? '', 'hex')
    const given = hashSecret(actual)
    return stored.length === given.length && timingSafeEqual(stored, given)
  } as never
}

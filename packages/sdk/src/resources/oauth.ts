import type { FormOf, OAuthMetadata, OAuthTokenResponse, QueryOf } from '../api-types.ts'
import type { WithResponse } from '../response-meta.ts'
import type { CallAuth, RequestOptions, Transport } from '../transport.ts'

/** How the app authenticates to the token endpoint. */
export interface OAuthClientOptions extends RequestOptions {
  /**
   * A confidential app's secret: sent with its `client_id` as HTTP Basic (client_secret_basic).
   * A public app (a native or browser app) has none and sends `client_id` in the body.
   */
  clientSecret?: string
}

/** The query of the authorization page, as the API spells it; PKCE's S256 is required. */
export type AuthorizeParams = QueryOf<'authorize'>

/** The code exchange's fields (`grant_type` is filled in). */
export type CodeExchange = Omit<FormOf<'exchangeToken'>, 'grant_type' | 'refresh_token'> & {
  code: string
  redirect_uri: string
  code_verifier: string
  client_id: string
}

/** The refresh's fields (`grant_type` is filled in). */
export type TokenRefresh = Omit<
  FormOf<'exchangeToken'>,
  'grant_type' | 'code' | 'redirect_uri' | 'code_verifier'
> & { refresh_token: string; client_id: string }

/**
 * The OAuth 2.0 authorization server (docs/oauth.md): the authorization page's URL, the token
 * exchange and refresh, revocation, and the metadata documents. Its errors are WorkgraphErrors
 * whose `code` is the OAuth `error` (such as `invalid_grant`). Nothing here is retried: a code
 * and a refresh token are single-use, so a second try would spend them.
 */
export class OAuth {
  readonly #transport: Transport

  constructor(transport: Transport) {
    this.#transport = transport
  }

  /**
   * The URL of the authorization page, to open in the person's browser (a browser page, not an
   * API call): after sign-in and consent the browser goes to `redirect_uri` with `code`, `state`
   * and `iss`. `response_type` and `code_challenge_method` default to `code` and `S256`.
   */
  authorizeUrl(
    params: Omit<AuthorizeParams, 'response_type' | 'code_challenge_method'> &
      Partial<Pick<AuthorizeParams, 'response_type' | 'code_challenge_method'>>,
  ): string {
    return this.#transport.url('/oauth/authorize', {
      response_type: 'code',
      code_challenge_method: 'S256',
      ...params,
    })
  }

  /** Exchanges an authorization code and its PKCE verifier for tokens. */
  exchangeCode(
    fields: CodeExchange,
    options: OAuthClientOptions = {},
  ): Promise<WithResponse<OAuthTokenResponse>> {
    return this.#token({ grant_type: 'authorization_code', ...fields }, options)
  }

  /** Exchanges a refresh token for new tokens; the refresh token rotates (use the new one). */
  refresh(
    fields: TokenRefresh,
    options: OAuthClientOptions = {},
  ): Promise<WithResponse<OAuthTokenResponse>> {
    return this.#token({ grant_type: 'refresh_token', ...fields }, options)
  }

  /** Revokes an access or refresh token (RFC 7009); an unknown token is not an error. */
  revoke(
    fields: FormOf<'revokeOAuthToken'>,
    options: OAuthClientOptions = {},
  ): Promise<WithResponse<Record<string, never>>> {
    return this.#transport.request({
      method: 'POST',
      path: '/oauth/revoke',
      form: this.#form(fields, options),
      auth: this.#auth(fields.client_id, options),
      retry: false,
      options,
    })
  }

  /** The authorization server's public keys (a JWK set). */
  jwks(options?: RequestOptions): Promise<WithResponse<OAuthMetadata>> {
    return this.#transport.request({ method: 'GET', path: '/oauth/jwks', auth: 'none', options })
  }

  /** The authorization server's metadata (RFC 8414): its endpoints, scopes and methods. */
  metadata(options?: RequestOptions): Promise<WithResponse<OAuthMetadata>> {
    return this.#transport.request({
      method: 'GET',
      path: '/.well-known/oauth-authorization-server',
      auth: 'none',
      options,
    })
  }

  /** The protected resource's metadata (RFC 9728): where to get a token, and its scopes. */
  protectedResourceMetadata(options?: RequestOptions): Promise<WithResponse<OAuthMetadata>> {
    return this.#transport.request({
      method: 'GET',
      path: '/.well-known/oauth-protected-resource',
      auth: 'none',
      options,
    })
  }

  #token(
    fields: FormOf<'exchangeToken'>,
    options: OAuthClientOptions,
  ): Promise<WithResponse<OAuthTokenResponse>> {
    return this.#transport.request({
      method: 'POST',
      path: '/oauth/token',
      form: this.#form(fields, options),
      auth: this.#auth(fields.client_id, options),
      retry: false,
      options,
    })
  }

  // A confidential app's client_id goes in the Basic header, not the body as well.
  #form(
    fields: Record<string, string | undefined>,
    options: OAuthClientOptions,
  ): Record<string, string | undefined> {
    return options.clientSecret === undefined ? fields : { ...fields, client_id: undefined }
  }

  #auth(clientId: string | undefined, options: OAuthClientOptions): CallAuth {
    if (options.clientSecret === undefined) return 'none'
    if (clientId === undefined) throw new TypeError('client_id is required with clientSecret')
    return { clientId, clientSecret: options.clientSecret }
  }
}

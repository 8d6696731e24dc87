import type Provider from 'oidc-provider'

// Fields of OpenID Connect Discovery that RFC 8414 does not define: each tells a client that ID
// tokens, userinfo or claims are on offer, and none is.
const OPENID_ONLY_FIELDS = [
  'claims_supported',
  'claim_types_supported',
  'claims_parameter_supported',
  'id_token_signing_alg_values_supported',
  'request_uri_parameter_supported',
  'subject_types_supported',
] as const

/** The scope of OpenID Connect, which this server does not grant. */
export const OPENID_SCOPE = 'openid'

/**
 * Keeps the authorization server's metadata to plain OAuth 2.0 (docs/oauth.md, "What the server
 * supports"). The library is an OpenID Provider and lists `openid` and its claims whatever it is
 * configured to do; this server issues no ID tokens and has no userinfo, so its metadata must not
 * say it does: a client that trusted it would ask for `openid` and be refused.
 */
export function advertiseOAuthOnly(provider: Provider): void {
  provider.use(async (ctx, next) => {
    await next()
    if (ctx.oidc?.route !== 'discovery' || typeof ctx.body !== 'object' || ctx.body === null) return
    const metadata = { ...(ctx.body as Record<string, unknown>) }
    for (const field of OPENID_ONLY_FIELDS) delete metadata[field]
    if (Array.isArray(metadata.scopes_supported))
      metadata.scopes_supported = metadata.scopes_supported.filter((s) => s !== OPENID_SCOPE)
    ctx.body = metadata
  })
}

/** Where the authorization server's endpoints live; the mount forwards exactly these paths. */
export const OAUTH_ROUTES = {
  authorization: '/oauth/authorize',
  token: '/oauth/token',
  revocation: '/oauth/revoke',
  registration: '/oauth/register',
  jwks: '/oauth/jwks',
} as const

/**
 * The authorization server's metadata document (RFC 8414). Not at the OpenID discovery path too:
 * this server is no OpenID Provider (oauth-metadata.ts).
 */
export const METADATA_PATHS = ['/.well-known/oauth-authorization-server'] as const

/** The protected resource's metadata (RFC 9728), served by this API rather than the provider. */
export const RESOURCE_METADATA_PATH = '/.well-known/oauth-protected-resource'

import { OAUTH_ROUTES, RESOURCE_METADATA_PATH } from '../oauth/oauth-routes.ts'

// An OAuth error body (RFC 6749 §5.2): the authorization server's own format, not problem+json.
const OAuthError = {
  title: 'OAuthError',
  type: 'object',
  required: ['error'],
  properties: {
    error: { type: 'string', examples: ['invalid_grant'] },
    error_description: { type: 'string' },
  },
}

const TokenResponse = {
  title: 'OAuthTokenResponse',
  type: 'object',
  required: ['access_token', 'token_type', 'expires_in', 'scope'],
  properties: {
    access_token: { type: 'string', description: 'wg_at_…, valid for one hour.' },
    token_type: { type: 'string', enum: ['Bearer'] },
    expires_in: { type: 'integer' },
    refresh_token: { type: 'string', description: 'wg_rt_…, 30 days, rotated on every use.' },
    scope: { type: 'string' },
  },
}

const Metadata = {
  title: 'OAuthMetadata',
  type: 'object',
  description: 'A metadata document; its members are those of the RFC it follows.',
  additionalProperties: true,
}

const JwkSet = {
  title: 'JwkSet',
  type: 'object',
  required: ['keys'],
  properties: {
    keys: {
      type: 'array',
      items: {
        type: 'object',
        required: ['kty'],
        properties: { kty: { type: 'string' }, kid: { type: 'string' }, alg: { type: 'string' } },
      },
    },
  },
}

const json = (schema: object) => ({ 'application/json': { schema } })
const form = (schema: object) => ({ 'application/x-www-form-urlencoded': { schema } })
const html = { 'text/html': { schema: { type: 'string' } } }
// The token endpoint's answers are never to be cached (RFC 6749 §5.1), its errors neither.
const noStore = {
  'Cache-Control': {
    description: 'Always `no-store`.',
    required: true,
    schema: { type: 'string', const: 'no-store' },
  },
}
const oauthError = { description: 'An OAuth error (RFC 6749).', content: json(OAuthError) }
const tokenError = { ...oauthError, headers: noStore }
const publicOperation = { tags: ['oauth'], security: [] }

const formParameters = (required: string[], properties: Record<string, object>) => ({
  type: 'object',
  required,
  properties,
})
const text = { type: 'string' }

/**
 * The authorization server's endpoints (docs/oauth.md). oidc-provider serves them, not a route
 * schema, so they are described here by hand; a test calls each one to hold the two together.
 */
export function oauthPaths(): Record<string, object> {
  return {
    [OAUTH_ROUTES.authorization]: {
      get: {
        ...publicOperation,
        operationId: 'authorize',
        summary: 'Start an authorization (browser)',
        description:
          'Authorization code with PKCE (S256 required). The person signs in and consents; the browser then goes to redirect_uri with code, state and iss.',
        parameters: [
          ['response_type', true, 'Always `code`.'],
          ['client_id', true, 'The app (cli_…).'],
          ['redirect_uri', true, 'Registered exactly, byte for byte.'],
          ['scope', true, 'Space-separated scopes of the catalogue.'],
          ['state', false, 'Returned unchanged; check it.'],
          ['code_challenge', true, 'BASE64URL(SHA-256(code_verifier)).'],
          ['code_challenge_method', true, 'Always `S256`.'],
          ['resource', false, 'This API (PUBLIC_URL); any other is `invalid_target`.'],
          ['response_mode', false, '`query` (the default) or `form_post`.'],
        ].map(([name, required, description]) => ({
          in: 'query',
          name,
          required,
          description,
          schema: text,
        })),
        responses: {
          '200': {
            description:
              'With `response_mode=form_post`, once the person has approved: an HTML page that posts code, state and iss to redirect_uri.',
            headers: noStore,
            content: html,
          },
          '303': {
            description:
              'To the sign-in and consent pages, then to redirect_uri (with code, state and iss, or with `error` once redirect_uri is known to be registered).',
            headers: {
              ...noStore,
              Location: { description: 'Where to go next.', required: true, schema: text },
            },
            content: html,
          },
          '400': {
            description:
              'An HTML error page, for the person at the browser: the request cannot be sent back to redirect_uri (an unknown client_id, a redirect_uri not registered, or no parameters at all).',
            headers: noStore,
            content: html,
          },
        },
      },
    },
    [OAUTH_ROUTES.token]: {
      post: {
        ...publicOperation,
        operationId: 'exchangeToken',
        summary: 'Exchange a code, or a refresh token, for tokens',
        description:
          'Public clients send client_id; confidential ones authenticate with HTTP Basic (client_secret_basic).',
        requestBody: {
          required: true,
          content: form(
            formParameters(['grant_type'], {
              grant_type: { type: 'string', enum: ['authorization_code', 'refresh_token'] },
              code: text,
              redirect_uri: text,
              code_verifier: text,
              refresh_token: text,
              client_id: text,
              resource: text,
            }),
          ),
        },
        responses: {
          '200': { description: 'Tokens.', headers: noStore, content: json(TokenResponse) },
          '400': tokenError,
          '401': {
            description:
              '`invalid_client`: the client could not be authenticated (an unknown client, a wrong secret).',
            headers: {
              ...noStore,
              'WWW-Authenticate': {
                description: 'The Basic challenge of the client authentication that failed.',
                schema: text,
              },
            },
            content: json(OAuthError),
          },
        },
      },
    },
    [OAUTH_ROUTES.revocation]: {
      post: {
        ...publicOperation,
        operationId: 'revokeOAuthToken',
        summary: 'Revoke an access or refresh token (RFC 7009)',
        requestBody: {
          required: true,
          content: form(
            formParameters(['token'], {
              token: text,
              token_type_hint: { type: 'string', enum: ['access_token', 'refresh_token'] },
              client_id: text,
            }),
          ),
        },
        responses: {
          '200': { description: 'Revoked, or was not valid: an empty body.' },
          '400': oauthError,
          '401': {
            ...oauthError,
            description: '`invalid_client`: the client could not be authenticated.',
          },
        },
      },
    },
    [OAUTH_ROUTES.jwks]: {
      get: {
        ...publicOperation,
        operationId: 'getJwks',
        summary: "The authorization server's public keys",
        responses: {
          '200': {
            description: 'A JWK set (RFC 7517).',
            content: { 'application/jwk-set+json': { schema: JwkSet } },
          },
          '400': oauthError,
        },
      },
    },
    '/.well-known/oauth-authorization-server': {
      get: {
        ...publicOperation,
        operationId: 'getAuthorizationServerMetadata',
        summary: 'Authorization server metadata (RFC 8414)',
        description:
          'Plain OAuth 2.0: no ID tokens, no userinfo, and no OpenID discovery document.',
        responses: {
          '200': { description: 'The metadata.', content: json(Metadata) },
          '400': oauthError,
        },
      },
    },
    [RESOURCE_METADATA_PATH]: {
      get: {
        ...publicOperation,
        operationId: 'getProtectedResourceMetadata',
        summary: 'Protected resource metadata (RFC 9728)',
        description: 'Where a client that got a 401 finds the authorization server and the scopes.',
        responses: {
          '200': {
            description: 'The metadata.',
            headers: { 'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' } },
            content: json(Metadata),
          },
          '400': oauthError,
        },
      },
    },
  }
}

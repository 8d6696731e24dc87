import { ProblemSchema } from '../api/schemas.ts'
import { allKinds } from '../catalogue/catalogue.ts'
import { SCOPES } from '../catalogue/scopes.ts'
import { OAUTH_ROUTES } from '../oauth/oauth-routes.ts'
import { webhookEventSchemas } from '../webhooks/webhook-events.schemas.ts'
import { IDEMPOTENCY_KEY_HEADER } from '../writes/idempotency-key.ts'
import { eventTypesRule, webhookUrlRule } from './code-rules.ts'
import { withDryRunResponse } from './dry-run-responses.ts'
import { hoistNamedSchemas } from './named-schemas.ts'
import { oauthPaths } from './oauth-paths.ts'
import { requestDefaultsInWords } from './request-defaults.ts'
import {
  API_PROBLEM_HEADERS,
  AUTHENTICATED_HEADERS,
  headerRefs,
  RESPONSE_HEADERS,
} from './response-headers.ts'

// biome-ignore lint/suspicious/noExplicitAny: the document is JSON shaped by @fastify/swagger
type Json = any

/** Tags beyond the kinds' own, in the order a reader meets them after those (docs/api.md). */
const OTHER_TAGS: Record<string, string> = {
  changes: 'The change feed: what changed since a cursor, oldest first, with long polling.',
  resources: 'Any resource by id: records, neighbours and cited summaries.',
  search: 'Ranked full-text search over what the caller can open.',
  attention: 'What needs attention for a person, a project, a team or the workspace.',
  tokens: 'API keys, workspace tokens and OAuth grants.',
  audit: "The workspace's audit log, for owners and admins.",
  webhooks: 'Signed webhook endpoints and their delivery log.',
  oauth: 'The OAuth 2.0 authorization server (authorization code with PKCE).',
  health: 'Liveness and readiness, without a token.',
}

// Every tag: the kinds' own, in catalogue order, then the others.
function tags(): { name: string; description: string }[] {
  const kinds = allKinds().flatMap((kind) => (kind.tag ? [kind.tag] : []))
  return [
    ...kinds.map(({ name, description }) => ({ name, description })),
    ...Object.entries(OTHER_TAGS).map(([name, description]) => ({ name, description })),
  ]
}

const STATUS_TEXT: Record<string, string> = {
  '200': 'OK.',
  '201': 'Created.',
  '202': 'Accepted: it happens in the background.',
}

const problemContent = {
  'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } },
}

// Descriptions, headers and the problem answers of one operation served by a route.
function finishOperation(operation: Json): Json {
  const authenticated = operation.security.length > 0
  const parameters = (operation.parameters ?? []).map((parameter: Json) =>
    parameter.in === 'header' && parameter.name === 'idempotency-key'
      ? { $ref: '#/components/parameters/IdempotencyKey' }
      : parameter,
  )
  const writes = parameters.some((p: Json) => p.$ref === '#/components/parameters/IdempotencyKey')
  const successHeaders = headerRefs([
    ...(authenticated ? AUTHENTICATED_HEADERS : ['X-Request-Id' as const]),
    ...(writes ? ['Idempotent-Replayed' as const] : []),
  ])
  const responses: Json = {}
  for (const [status, response] of Object.entries<Json>(operation.responses)) {
    if (!status.startsWith('2')) continue
    responses[status] = {
      ...response,
      description: STATUS_TEXT[status] ?? response.description,
      headers: successHeaders,
    }
  }
  if (authenticated) responses['429'] = { $ref: '#/components/responses/RateLimited' }
  const problem = authenticated ? 'ApiProblem' : 'Problem'
  responses['4XX'] = { $ref: `#/components/responses/${problem}` }
  responses['5XX'] = { $ref: `#/components/responses/${problem}` }
  const security = operation.security.flatMap((alternative: Json) => [
    alternative,
    { oauth2: alternative.bearerAuth },
  ])
  return {
    ...operation,
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(operation.requestBody ? { requestBody: bodyRequirement(operation.requestBody) } : {}),
    security,
    responses,
  }
}

// A body is optional when `{}` is valid: the server reads an absent body as `{}` (validators.ts).
function bodyRequirement(requestBody: Json): Json {
  const schema = requestBody.content?.['application/json']?.schema ?? {}
  const required = (schema.required?.length ?? 0) > 0 || (schema.minProperties ?? 0) > 0
  return { ...requestBody, required }
}

function webhookOperations(): Json {
  return Object.fromEntries(
    Object.entries(webhookEventSchemas()).map(([type, schema]) => [
      type,
      {
        post: {
          operationId: `${type.replace(/[._](\w)/g, (_, c: string) => c.toUpperCase())}Webhook`,
          summary: `The ${type} event`,
          description: `${(schema as { description?: string }).description} Signed as docs/webhooks.md describes.`,
          tags: ['webhooks'],
          // Your endpoint checks the signature instead (docs/webhooks.md).
          security: [],
          requestBody: { required: true, content: { 'application/json': { schema } } },
          responses: {
            '200': { description: 'Received. Any 2xx counts; answer within 15 seconds.' },
            '410': { description: 'Gone: the endpoint is disabled and nothing more is sent.' },
          },
        },
      },
    ]),
  )
}

function components(publicUrl: string, schemas: Json): Json {
  return {
    schemas: Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b))),
    parameters: {
      IdempotencyKey: {
        in: 'header',
        name: 'Idempotency-Key',
        required: false,
        description:
          'Makes retries safe: the same key and request within 24 hours gets the first answer again, with `Idempotent-Replayed: true`. 1–255 characters of A-Z a-z 0-9 _ . : -, bare or in double quotes (a structured-field string); a UUID is a good choice.',
        schema: {
          type: 'string',
          minLength: 1,
          ...IDEMPOTENCY_KEY_HEADER,
        },
      },
    },
    headers: RESPONSE_HEADERS,
    responses: {
      Problem: {
        description: 'A problem (RFC 9457) with a stable `code` (docs/errors.md).',
        headers: headerRefs(['X-Request-Id']),
        content: problemContent,
      },
      ApiProblem: {
        description:
          'A problem (RFC 9457) with a stable `code` (docs/errors.md). A 401 or 403 carries the Bearer challenge; an answer to a known token, its rate-limit state.',
        headers: headerRefs(API_PROBLEM_HEADERS),
        content: problemContent,
      },
      RateLimited: {
        description: "Over the token's budget of reads or writes for this minute.",
        headers: headerRefs([...AUTHENTICATED_HEADERS, 'Retry-After']),
        content: problemContent,
      },
    },
    securitySchemes: {
      bearerAuth: {
        type: 'http',
        scheme: 'bearer',
        description:
          'An API key (wg_key_…), a workspace token (wg_wst_…) or an OAuth access token (wg_at_…). Each operation lists the scopes that open it.',
      },
      oauth2: {
        type: 'oauth2',
        description: 'Authorization code with PKCE (S256 only); docs/oauth.md.',
        flows: {
          authorizationCode: {
            authorizationUrl: `${publicUrl}${OAUTH_ROUTES.authorization}`,
            tokenUrl: `${publicUrl}${OAUTH_ROUTES.token}`,
            refreshUrl: `${publicUrl}${OAUTH_ROUTES.token}`,
            scopes: SCOPES,
          },
        },
      },
    },
  }
}

/** What of the server's configuration the document states. */
export interface DocumentedServer {
  readonly publicUrl: string
  readonly allowHttpLoopback: boolean
}

/**
 * Turns what @fastify/swagger generates from the route schemas into the published contract
 * (docs/api.md, "OpenAPI"): named schemas, problem+json errors, headers, both security schemes,
 * the OAuth endpoints, tags, the webhooks each endpoint receives, and requests' defaults in words.
 */
export function finishDocument(generated: Json, server: DocumentedServer): Json {
  const { publicUrl } = server
  const paths: Json = {}
  for (const [path, item] of Object.entries<Json>(generated.paths)) {
    paths[path] = Object.fromEntries(
      Object.entries<Json>(item).map(([method, operation]) => [
        method,
        withDryRunResponse(finishOperation(operation)),
      ]),
    )
  }
  const schemas: Json = {}
  const document = {
    openapi: generated.openapi,
    info: {
      ...generated.info,
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
    },
    servers: generated.servers,
    tags: tags(),
    paths: hoistNamedSchemas({ ...paths, ...oauthPaths() }, schemas),
    webhooks: hoistNamedSchemas(webhookOperations(), schemas),
  }
  // Errors are declared once, as components.responses, so no path names the problem body.
  hoistNamedSchemas(ProblemSchema, schemas)
  requestDefaultsInWords(document.paths, schemas)
  webhookUrlRule(schemas, server)
  eventTypesRule(document.paths)
  return { ...document, components: components(publicUrl, schemas) }
}

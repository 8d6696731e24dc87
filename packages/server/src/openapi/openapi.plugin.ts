import swagger from '@fastify/swagger'
import type { FastifyInstance } from 'fastify'
import type { ScopeRequirement } from '../access/scopes.ts'
import { ProblemSchema } from '../api/schemas.ts'
import { type DocumentedServer, finishDocument } from './finish-document.ts'

// Per-kind scopes become alternatives: a token with any one of them may call the route (for ids of
// that kind).
function securityOf(scopes: ScopeRequirement) {
  if ('anyOf' in scopes) {
    return {
      security: scopes.anyOf.map((scope) => ({ bearerAuth: [scope] })),
      'x-required-scopes': [...scopes.anyOf],
      'x-scopes-any-of': true,
    }
  }
  if (!('byIdKind' in scopes))
    return { security: [{ bearerAuth: [...scopes] }], 'x-required-scopes': [...scopes] }
  const alternatives = [...new Set(Object.values(scopes.byIdKind).flat())]
  return {
    security: alternatives.map((scope) => ({ bearerAuth: [scope] })),
    'x-required-scopes': alternatives,
    'x-scopes-by-id-kind': scopes.byIdKind,
  }
}

/**
 * Generates the OpenAPI 3.1 document from the route schemas and serves it at
 * `GET /v1/openapi.json`. Each operation's `security` lists the scopes its route declares.
 */
export async function installOpenApi(
  app: FastifyInstance,
  server: DocumentedServer,
): Promise<void> {
  const { publicUrl } = server
  app.addHook('onRoute', (route) => {
    const scopes = route.config?.scopes
    const schema = route.schema as { hide?: boolean; operationId?: string } | undefined
    if (!schema?.hide && !schema?.operationId)
      throw new Error(`${route.method} ${route.url} must declare schema.operationId (or hide)`)
    route.schema = {
      ...route.schema,
      ...(scopes ? securityOf(scopes) : { security: [] }),
      response: {
        ...(route.schema?.response as object | undefined),
        '4xx': ProblemSchema,
        '5xx': ProblemSchema,
      },
    }
  })
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Workgraph API',
        version: '1.0.0',
        description:
          'The work of a workspace as one permission-aware graph. Every response contains only what the token owner could open.',
      },
      servers: [{ url: publicUrl }],
      // The generator needs the scheme the routes name; finishDocument declares both schemes.
      components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } } },
    },
    // OpenAPI 3.1 is JSON Schema 2020-12: `const` stays as TypeBox writes it.
    convertConstToEnum: false,
    transformObject: (documents) =>
      finishDocument((documents as { openapiObject: unknown }).openapiObject, server),
  })
  app.get('/v1/openapi.json', { schema: { hide: true }, config: { public: true } }, async () =>
    app.swagger(),
  )
}

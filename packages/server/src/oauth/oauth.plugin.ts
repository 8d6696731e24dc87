import type { FastifyInstance } from 'fastify'
import type { AppDeps } from '../app-deps.ts'
import { interactionPages } from './interaction/interaction.plugin.ts'
import { createOAuthProvider, REQUESTABLE_SCOPES } from './oauth-provider.ts'
import { METADATA_PATHS, OAUTH_ROUTES, RESOURCE_METADATA_PATH } from './oauth-routes.ts'

/** This API's identifier as a protected resource: its public base URL without a trailing slash. */
export function resourceIdentifier(publicUrl: string): string {
  return publicUrl.replace(/\/+$/, '')
}

/**
 * The OAuth 2.0 authorization server (oidc-provider, a Koa app) inside Fastify, its sign-in and
 * consent pages, and the protected-resource metadata. The provider's paths are declared as
 * Fastify routes that hand the raw request over before Fastify reads the body, so Fastify's
 * 404s, body parsing and hooks after onRequest never touch them.
 */
export function oauthPlugin(deps: AppDeps) {
  return async (app: FastifyInstance) => {
    const resource = resourceIdentifier(deps.config.publicUrl)
    const provider = createOAuthProvider({
      db: deps.db,
      issuer: resource,
      keys: deps.oauthKeys,
      secrets: deps.secrets,
      dynamicRegistration: deps.config.oauthDynamicRegistration,
      registrationToken: deps.config.oauthRegistrationToken,
      logger: app.log,
    })
    const handOver = provider.callback()
    const paths = [
      OAUTH_ROUTES.authorization,
      `${OAUTH_ROUTES.authorization}/:uid`, // where a finished sign-in or consent resumes
      OAUTH_ROUTES.token,
      OAUTH_ROUTES.revocation,
      OAUTH_ROUTES.jwks,
      ...(deps.config.oauthDynamicRegistration ? [OAUTH_ROUTES.registration] : []),
      ...METADATA_PATHS,
    ]
    for (const url of paths) {
      app.route({
        method: ['GET', 'POST', 'OPTIONS'],
        url,
        config: { public: true },
        schema: { hide: true },
        onRequest: async (request, reply) => {
          reply.hijack()
          handOver(request.raw, reply.raw)
        },
        handler: async () => undefined,
      })
    }

    app.get(
      RESOURCE_METADATA_PATH,
      { config: { public: true }, schema: { hide: true } },
      async () => ({
        resource,
        authorization_servers: [resource],
        scopes_supported: REQUESTABLE_SCOPES,
        bearer_methods_supported: ['header'],
        resource_name: 'Workgraph API',
        resource_documentation: `${resource}/v1/openapi.json`,
      }),
    )

    await app.register(interactionPages({ deps, provider }))
  }
}

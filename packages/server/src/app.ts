import cookie from '@fastify/cookie'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify'
import type { AppDeps } from './app-deps.ts'
import { attentionRoutes } from './attention/attention.routes.ts'
import { auditRoutes } from './audit/audit.routes.ts'
import { kindsWith } from './catalogue/catalogue.ts'
import { accessRoutes } from './graph/access/access.routes.ts'
import { ChangeFeed } from './graph/changes/change-feed.ts'
import { changeRoutes } from './graph/changes/changes.routes.ts'
import { meRoutes } from './graph/me/me.routes.ts'
import { resourceRoutes } from './graph/resources/resources.routes.ts'
import { healthRoutes } from './health/health.routes.ts'
import { installAuthentication } from './http/authentication.ts'
import { installBodyShapeLimit } from './http/body-shape.hook.ts'
import { limitConnections } from './http/connection-limits.ts'
import { installDrainingRefusal } from './http/draining.hook.ts'
import { installDryRuns } from './http/dry-run.hook.ts'
import { frameworkErrorHandler, installErrorHandling } from './http/error-handling.ts'
import { installHostHeaderCheck } from './http/host-header.hook.ts'
import { clientErrorHandler, expectationFailed, refuseConnect } from './http/http-layer-errors.ts'
import { installJsonBodyParser } from './http/json-body-parser.ts'
import { installProblemTypes } from './http/problem-response.ts'
import { installRateLimits } from './http/rate-limit.ts'
import { requestId } from './http/request-id.ts'
import { installRequestLog } from './http/request-log.ts'
import { installSingleAuthorization } from './http/single-authorization.hook.ts'
import { installSocketTimeouts } from './http/socket-timeouts.ts'
import { installStorableTextRule } from './http/storable-text.hook.ts'
import { defaultEmptyBody, validatorCompiler } from './http/validators.ts'
import { defineBuiltInKinds } from './kinds/built-in-kinds.ts'
import { mcpRoutes } from './mcp/mcp.routes.ts'
import { metricsRoutes } from './metrics/metrics.routes.ts'
import { installRequestMetrics } from './metrics/request-metrics.hook.ts'
import { oauthPlugin, resourceIdentifier } from './oauth/oauth.plugin.ts'
import { oauthGrantRoutes } from './oauth/oauth-grants.routes.ts'
import { RESOURCE_METADATA_PATH } from './oauth/oauth-routes.ts'
import { installOpenApi } from './openapi/openapi.plugin.ts'
import { errorPageRoutes } from './reference/error-pages.routes.ts'
import { referenceRoutes } from './reference/reference.routes.ts'
import { searchRoutes } from './search/search.routes.ts'
import { summaryRoutes } from './summaries/summaries.routes.ts'
import type { Tracing } from './telemetry/tracing.ts'
import { tokenRoutes } from './tokens/tokens.routes.ts'
import { webNotFound, webPlugin } from './web/web.plugin.ts'
import { webhookRoutes } from './webhooks/webhooks.routes.ts'

// Headers alone get this much of a request's time: a client that sends nothing is let go sooner.
const HEADERS_TIMEOUT_MS = 15_000

/** Options of buildApp that differ between the server, tests and benchmarks. */
export interface AppOptions {
  /** The structured logger; tests run without one. */
  logger?: FastifyBaseLogger
  /** Traces, when the OTEL_* settings ask for them (telemetry/tracing.ts). */
  tracing?: Tracing | undefined
}

/**
 * Builds the HTTP app: cross-cutting plugins first (errors, request ids, authentication, OpenAPI),
 * then the route modules. The process entry and the tests both build it here.
 */
export async function buildApp(deps: AppDeps, options: AppOptions = {}): Promise<FastifyInstance> {
  defineBuiltInKinds()
  const app = Fastify({
    ...(options.logger ? { loggerInstance: options.logger } : { logger: false }),
    genReqId: requestId,
    logController: new LogController({
      requestIdLogLabel: 'request_id',
      // Requests are logged at debug with a summary each minute instead (http/request-log.ts).
      disableRequestLogging: true,
    }),
    bodyLimit: deps.config.bodyLimitBytes,
    // Node's own bounds, which Fastify's defaults turn off (docs/configuration.md).
    requestTimeout: deps.config.httpRequestTimeoutMs,
    keepAliveTimeout: deps.config.httpKeepAliveTimeoutMs,
    frameworkErrors: frameworkErrorHandler,
    // Requests Node's parser refuses, answered in problem+json too.
    clientErrorHandler: clientErrorHandler(deps.config.publicUrl),
    // The Host check is made in a hook, so that its 400 is a problem like every other.
    http: {
      requireHostHeader: false,
      headersTimeout: Math.min(deps.config.httpRequestTimeoutMs, HEADERS_TIMEOUT_MS),
      // How often Node looks for requests past those bounds (its default is every 30 s).
      connectionsCheckingInterval: 1000,
    },
    // Fastify's default joins every validation error into one message; the answer is built from
    // the errors themselves (http/error-handling.ts), so that work would only be thrown away.
    schemaErrorFormatter: (_errors, part) => new Error(`the ${part} is invalid`),
    // Requests that arrive while closing get our problem+json (http/draining.hook.ts).
    return503OnClosing: false,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
  }).withTypeProvider<TypeBoxTypeProvider>()

  // First, so that every hook and route after it runs inside its request's span.
  if (options.tracing) await app.register(options.tracing.requestSpans)
  limitConnections(app, {
    maxConnections: deps.config.httpMaxConnections,
    maxConnectionsPerClient: deps.config.httpMaxConnectionsPerClient,
  })
  installSocketTimeouts(
    app,
    {
      firstRequestMs: Math.min(deps.config.httpRequestTimeoutMs, HEADERS_TIMEOUT_MS),
      bodyIdleMs: deps.config.httpBodyIdleTimeoutMs,
    },
    deps.config.publicUrl,
  )
  app.server.on('checkExpectation', expectationFailed(deps.config.publicUrl))
  app.server.on('connect', refuseConnect(deps.config.publicUrl))
  installProblemTypes(app, deps.config.publicUrl)
  app.setValidatorCompiler(validatorCompiler())
  installBodyShapeLimit(app)
  installStorableTextRule(app)
  app.addHook('preValidation', async (request) => defaultEmptyBody(request))
  // JSON only: any other body type is a 415 rather than a string that fails validation later.
  app.removeContentTypeParser(['text/plain'])
  installJsonBodyParser(app)
  installErrorHandling(app, webNotFound(deps))
  app.addHook('onError', async (_request, _reply, error) => deps.health.observe(error))
  installRequestLog(app)
  // Counted only where someone may read the counts: a request pays nothing for metrics left off.
  if (deps.config.metricsToken !== undefined) installRequestMetrics(app, deps.metrics)
  installDrainingRefusal(app, deps.lifecycle)
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id)
    if (request.url.startsWith('/v1/')) reply.header('cache-control', 'no-store')
  })
  installHostHeaderCheck(app)
  installSingleAuthorization(app)
  installAuthentication(app, {
    db: deps.db,
    clock: deps.clock,
    principals: deps.principals,
    challenge: `realm="workgraph", resource_metadata="${resourceIdentifier(deps.config.publicUrl)}${RESOURCE_METADATA_PATH}"`,
    resource: resourceIdentifier(deps.config.publicUrl),
  })
  installDryRuns(app)
  installRateLimits(app, { store: deps.rateLimits, config: deps.config, clock: deps.clock })
  await installOpenApi(app, {
    publicUrl: deps.config.publicUrl,
    allowHttpLoopback: deps.config.webhooksAllowHttpLoopback,
  })
  // On the root, so that the HTML 404 of an unknown page can read the dashboard's session too.
  await app.register(cookie)

  await app.register(healthRoutes(deps))
  await app.register(metricsRoutes(deps.metrics, deps.config.metricsToken))
  // Each kind's own routes, in catalogue order (the OpenAPI document lists paths in that order).
  for (const kind of kindsWith('routes')) await app.register(kind.routes(deps))
  // One change feed for the app: REST and MCP long polls share its heads, wake-ups and turns.
  const feed = new ChangeFeed(deps, (error) =>
    app.log.warn({ err: error }, 'change feed wake-ups: a look or the listener failed'),
  )
  app.addHook('preClose', async () => feed.endWaits())
  app.addHook('onClose', () => feed.close())
  await app.register(changeRoutes(feed))
  await app.register(resourceRoutes(deps))
  await app.register(accessRoutes(deps))
  await app.register(searchRoutes(deps))
  await app.register(summaryRoutes(deps))
  await app.register(attentionRoutes(deps))
  await app.register(meRoutes(deps))
  await app.register(tokenRoutes(deps))
  await app.register(auditRoutes(deps))
  await app.register(webhookRoutes(deps))
  await app.register(oauthGrantRoutes(deps))
  await app.register(oauthPlugin(deps))
  await app.register(mcpRoutes(deps, feed))
  await app.register(referenceRoutes())
  await app.register(errorPageRoutes(deps))
  await app.register(webPlugin(deps))
  return app
}

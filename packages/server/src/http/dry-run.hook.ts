import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import Type from 'typebox'
import { DryRunParameter, isDryRun } from '../api/dry-run.ts'
import { ProblemError } from '../api/problem-catalogue.ts'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set on every route that takes `?dry_run=` (each POST, PATCH and DELETE under /v1). */
    dryRunnable?: boolean
  }
}

const METHODS = new Set(['POST', 'PATCH', 'DELETE'])

/**
 * Lets every write under /v1 be tried without effect (docs/api.md, "Dry runs"): declares the
 * `dry_run` query parameter on each POST, PATCH and DELETE route, and refuses any value but
 * `true` or `false` with 400 before the body is validated, so a misspelt flag never becomes a
 * real write. Read-only routes (`POST /v1/search`) answer their usual body inside the envelope.
 */
export function installDryRuns(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method]
    if (!route.url.startsWith('/v1/') || !methods.some((method) => METHODS.has(method))) return
    const query = route.schema?.querystring as
      | { properties?: Record<string, unknown>; additionalProperties?: boolean }
      | undefined
    route.config = { ...route.config, dryRunnable: true }
    route.schema = {
      ...route.schema,
      querystring: Type.Object(
        { ...(query?.properties as object), dry_run: DryRunParameter },
        { additionalProperties: query?.additionalProperties ?? false },
      ),
    }
    // Hooks of these routes alone: Fastify runs an onSend hook for every reply of its routes, and
    // on every route it cost the writes much of their throughput (bench/HISTORY.md, "Writes, the
    // change feed and dry runs").
    route.preValidation = [...hooksOf(route.preValidation), refuseBadFlag]
    if (!route.config.write) route.onSend = [...hooksOf(route.onSend), envelopeReadOnly]
  })
}

// A route's hooks of one kind as a list, whether it declared none, one or several.
function hooksOf<T>(hooks: T | T[] | undefined): T[] {
  return hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks]
}

async function refuseBadFlag(request: FastifyRequest): Promise<void> {
  const value = (request.query as { dry_run?: unknown }).dry_run
  if (value === undefined || value === 'true' || value === 'false') return
  throw new ProblemError('invalid_request', 'dry_run must be true or false, given once.', {
    errors: [{ path: '/query/dry_run', message: 'dry_run must be true or false.' }],
  })
}

// A read-only route has nothing to roll back: its usual answer is the dry run's result.
async function envelopeReadOnly(
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
): Promise<unknown> {
  if (reply.statusCode !== 200 || !isDryRun(request) || typeof payload !== 'string') return payload
  return `{"dry_run":true,"result":${payload},"activity":[],"events":[]}`
}

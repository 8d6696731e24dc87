import { EVENT_LIST_PATTERN } from '../graph/changes/event-types.ts'
import { endpointUrlPattern } from '../webhooks/ssrf-guard.ts'

// biome-ignore lint/suspicious/noExplicitAny: the document is JSON shaped by @fastify/swagger
type Json = any

// The bodies that carry an endpoint's URL.
const BODIES = ['CreateWebhookRequest', 'UpdateWebhookRequest']

/**
 * States the scheme a webhook URL must have as a `pattern` of the bodies that carry one. Only the
 * document gets it: the rule depends on WEBHOOKS_ALLOW_HTTP_LOOPBACK, which the routes' schemas,
 * made once, cannot; the server checks it in checkEndpointUrl (docs/webhooks.md).
 */
export function webhookUrlRule(schemas: Json, options: { allowHttpLoopback: boolean }): void {
  for (const name of BODIES) {
    const url = schemas[name]?.properties?.url
    if (!url) throw new Error(`${name} has no url to state the rule on`)
    url.pattern = endpointUrlPattern(options)
    url.description = options.allowHttpLoopback
      ? 'An https URL (plain http only to this machine: this server allows it for development).'
      : 'An https URL.'
  }
}

/**
 * States the names `GET /v1/changes?types=` takes as a `pattern`. Only the document gets it: the
 * route's own check (parseEventTypes) answers a wrong name by naming the known ones, which a
 * pattern's refusal could not say.
 */
export function eventTypesRule(paths: Json): void {
  const types = paths['/v1/changes']?.get?.parameters?.find(
    (parameter: Json) => parameter.in === 'query' && parameter.name === 'types',
  )
  if (!types) throw new Error('GET /v1/changes has no types parameter to state the rule on')
  types.schema = { ...types.schema, pattern: EVENT_LIST_PATTERN }
}

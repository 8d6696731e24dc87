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

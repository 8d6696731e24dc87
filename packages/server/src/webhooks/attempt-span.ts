import { context, propagation, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api'
import { contextOfTraceParent } from '../lib/trace-parent.ts'
import type { SendResult } from './delivery-sender.ts'

const tracer = trace.getTracer('workgraph.webhooks')

/** What names one attempt in its span. */
export interface AttemptOfSpan {
  /** The `traceparent` kept with the event: the write that caused it. */
  traceParent: string | null
  url: string
  eventType: string
  deliveryId: string
  attempt: number
}

/**
 * Sends one webhook attempt inside a span of its own (docs/operations.md, "Traces"): a child of
 * the request that wrote the event, when that one was traced, so a trace follows a change from
 * the API to its receivers. `send` gets the headers that carry the span on (W3C `traceparent`),
 * which the receiver may continue. The span names the receiver's host, never its full address: a
 * path can hold a receiver's secret.
 */
export async function inAttemptSpan(
  attempt: AttemptOfSpan,
  send: (traceHeaders: Record<string, string>) => Promise<SendResult>,
): Promise<SendResult> {
  const target = new URL(attempt.url)
  const span = tracer.startSpan(
    `webhook ${attempt.eventType}`,
    {
      kind: SpanKind.CLIENT,
      attributes: {
        'http.request.method': 'POST',
        'server.address': target.hostname,
        'workgraph.webhook.delivery_id': attempt.deliveryId,
        'workgraph.webhook.attempt': attempt.attempt,
        'workgraph.webhook.event_type': attempt.eventType,
      },
    },
    contextOfTraceParent(attempt.traceParent),
  )
  const traceHeaders: Record<string, string> = {}
  propagation.inject(trace.setSpan(context.active(), span), traceHeaders)
  const result = await send(traceHeaders)
  if (result.status !== null) span.setAttribute('http.response.status_code', result.status)
  if (result.errorKind !== null)
    span.setStatus({ code: SpanStatusCode.ERROR, message: result.errorKind })
  span.end()
  return result
}

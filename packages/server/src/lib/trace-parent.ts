import { type Context, context, propagation, ROOT_CONTEXT } from '@opentelemetry/api'

/**
 * The W3C `traceparent` of the span current now, or null when nothing is traced: what an event
 * keeps of the request that wrote it (docs/operations.md, "Traces").
 */
export function currentTraceParent(): string | null {
  const carrier: Record<string, string> = {}
  propagation.inject(context.active(), carrier)
  return carrier.traceparent ?? null
}

/** The context a kept `traceparent` names, to start a span in that trace; the root without one. */
export function contextOfTraceParent(traceParent: string | null): Context {
  if (traceParent === null) return ROOT_CONTEXT
  return propagation.extract(ROOT_CONTEXT, { traceparent: traceParent })
}

import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api'

const tracer = trace.getTracer('workgraph.db')

/**
 * Runs one statement inside a span of its own (docs/operations.md, "Traces"), a child of whatever
 * span is current (the request's). The span carries the statement's text with its placeholders,
 * never the values bound to them. Until a tracer provider is registered the API hands out spans
 * that record nothing, and the statement runs with no more than that check.
 */
export function inStatementSpan<T>(text: string, run: () => Promise<T>): Promise<T> {
  const span = tracer.startSpan(operationOf(text), {
    kind: SpanKind.CLIENT,
    attributes: { 'db.system.name': 'postgresql', 'db.query.text': text },
  })
  if (!span.isRecording()) return run()
  return run().then(
    (result) => {
      span.end()
      return result
    },
    (error: unknown) => {
      span.recordException(error as Error)
      span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error).message })
      span.end()
      throw error
    },
  )
}

// The span's name: the statement's first word (select, insert, with, begin…), as the semantic
// conventions name a database span by its operation.
function operationOf(text: string): string {
  return /^\s*(\w+)/.exec(text)?.[1]?.toLowerCase() ?? 'statement'
}

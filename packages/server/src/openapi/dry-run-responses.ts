// biome-ignore lint/suspicious/noExplicitAny: the document is JSON shaped by @fastify/swagger
type Json = any

// The answer of every dry run (docs/api.md, "Dry runs"); `result` is the operation's body. Not
// a named component: only extensions name it, and linters call such components unused.
const DryRunAnswer = {
  type: 'object',
  description:
    'What a write with `dry_run=true` answers (200): nothing was written. `result` is the body the write would answer (its success schema), with the ids it would assign, and any secret it would reveal, as null.',
  required: ['dry_run', 'result', 'activity', 'events'],
  properties: {
    dry_run: { const: true },
    result: { description: "The body the write would answer, as the operation's success." },
    activity: {
      type: 'array',
      description: 'The activity entries it would record, as GET /v1/activity shows them.',
      items: { $ref: '#/components/schemas/ActivityEntry' },
    },
    events: {
      type: 'array',
      items: {
        type: 'object',
        description:
          'A webhook event the write would emit: `type` and `data` as docs/webhooks.md describes them, links the caller cannot open left out.',
        required: ['type', 'data'],
        properties: { type: { type: 'string' }, data: { type: 'object' } },
      },
    },
  },
}

/**
 * Declares what a dry run answers on each operation that takes `dry_run`, as the extension
 * `x-dry-run-response`: the envelope, with the operation's own success body as its `result`.
 * Not as a second 2xx response: generated clients type a write's answer as the union of its 2xx
 * answers, and every write would become a union for clients that never ask for a dry run.
 */
export function withDryRunResponse(operation: Json): Json {
  const takesFlag = (operation.parameters ?? []).some(
    (parameter: Json) => parameter.in === 'query' && parameter.name === 'dry_run',
  )
  const success = Object.entries<Json>(operation.responses).find(([status]) =>
    status.startsWith('2'),
  )
  if (!takesFlag || !success) return operation
  const result = success[1].content?.['application/json']?.schema ?? {}
  return {
    ...operation,
    'x-dry-run-response': {
      status: 200,
      description: 'With `dry_run=true`: what the write would do; nothing was written.',
      content: {
        'application/json': {
          schema: { ...DryRunAnswer, properties: { ...DryRunAnswer.properties, result } },
        },
      },
    },
  }
}

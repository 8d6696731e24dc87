import { ActivityRecord } from '../activity/activity.schemas.ts'

// biome-ignore lint/suspicious/noExplicitAny: the document is JSON shaped by @fastify/swagger
type Json = any

// Formats of text a write never makes anew from a minted id or secret: timestamps and days.
const NEVER_MINTED = new Set(['date-time', 'date'])

/**
 * A copy of a schema as a dry run fills it (docs/api.md, "Dry runs"): any text the real write
 * would make anew (an id, the `url` and `api_url` that name it, a secret, its `last4`) is null,
 * so every free-text string may be null; values of a fixed set (`enum`, `const`) and timestamps
 * never are. Titles are dropped: the copy is not the record's named schema.
 */
export function mintedAsNullable(schema: Json): Json {
  if (Array.isArray(schema)) return schema.map(mintedAsNullable)
  if (schema === null || typeof schema !== 'object') return schema
  const copy: Json = {}
  for (const [key, value] of Object.entries<Json>(schema)) {
    if (key === 'title') continue
    if (key === 'properties' || key === 'patternProperties' || key === '$defs')
      copy[key] = Object.fromEntries(
        Object.entries<Json>(value).map(([name, child]) => [name, mintedAsNullable(child)]),
      )
    else if (['items', 'additionalProperties', 'anyOf', 'oneOf', 'allOf', 'not'].includes(key))
      copy[key] = mintedAsNullable(value)
    else copy[key] = value
  }
  const free =
    copy.type === 'string' &&
    !('enum' in copy) &&
    !('const' in copy) &&
    !NEVER_MINTED.has(copy.format)
  return free ? { ...copy, type: ['string', 'null'] } : copy
}

// The answer of every dry run, around `result`: the operation's success body as a dry run fills it.
function dryRunAnswer(title: string, result: Json): Json {
  return {
    title,
    type: 'object',
    description:
      'What a write with `dry_run=true` answers (200): nothing was written. `result` is the body the write would answer, with the ids it would assign, the `url` and `api_url` that would name them, and any secret it would reveal, as null.',
    required: ['dry_run', 'result', 'activity', 'events'],
    properties: {
      dry_run: { const: true },
      result: { ...mintedAsNullable(result), description: 'The body the write would answer.' },
      activity: {
        type: 'array',
        description:
          'The activity entries it would record, as GET /v1/activity shows them, their new ids as null.',
        items: mintedAsNullable(ActivityRecord),
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
}

// The schema's own name, or the operation's, for the answer's component name.
function answerTitle(operation: Json, result: Json): string {
  const name =
    typeof result?.title === 'string'
      ? result.title
      : String(operation.operationId).replace(/^./, (c) => c.toUpperCase())
  return `${name}DryRun`
}

/**
 * Declares what a dry run answers on each operation that takes `dry_run` (docs/api.md, "Dry
 * runs"), as the server sends it: a 200 of its own beside a write's 201 or 202, and beside the
 * record (`anyOf`) where the write itself answers 200. A validating proxy then passes dry runs;
 * a generated client types such a write's answer as the union and tells the two by `dry_run`.
 */
export function withDryRunResponse(operation: Json): Json {
  const takesFlag = (operation.parameters ?? []).some(
    (parameter: Json) => parameter.in === 'query' && parameter.name === 'dry_run',
  )
  const success = Object.entries<Json>(operation.responses).find(([status]) =>
    status.startsWith('2'),
  )
  if (!takesFlag || !success) return operation
  const [status, response] = success
  const result = response.content?.['application/json']?.schema ?? {}
  const answer = dryRunAnswer(answerTitle(operation, result), result)
  const description = 'With `dry_run=true`: what the write would do; nothing was written.'
  const dryRun =
    status === '200'
      ? {
          ...response,
          description: `${response.description} ${description}`,
          content: {
            'application/json': {
              schema: {
                title: answer.title.replace(/DryRun$/, 'OrDryRun'),
                anyOf: [result, answer],
              },
            },
          },
        }
      : { ...response, description, content: { 'application/json': { schema: answer } } }
  return { ...operation, responses: { ...operation.responses, '200': dryRun } }
}

import Type, { type TSchema } from 'typebox'
import { TOOL_BUDGET } from '../tool-result.ts'

/** The `max_tokens` argument every tool takes. */
export const MaxTokens = Type.Optional(
  Type.Integer({
    minimum: TOOL_BUDGET.minimum,
    maximum: TOOL_BUDGET.maximum,
    description: `Token budget of the result (o200k). Default ${TOOL_BUDGET.default}.`,
  }),
)

/** A page's `cursor` argument. */
export const Cursor = Type.Optional(
  Type.String({ maxLength: 2000, description: 'next_cursor of the previous call.' }),
)

/**
 * A cited item in a result: its id and where a person opens it. Items carry more (type, title,
 * facts); the schema declares what every item has, since each token of it is paid on every call.
 */
export const Ref = Type.Object({ id: Type.String(), title: Type.String(), url: Type.String() })

/** A page's `next_cursor`: null on the last page. */
export const NextCursor = Type.Union([Type.String(), Type.Null()])

/**
 * A schema without its descriptions, titles and examples, for a tool's arguments made from a
 * `/v1` body: the REST reference explains each field at length, the tool has a title and
 * description of its own, and a tool's definition is read on every turn of a model. Apply it to
 * the whole object: its `required` list is computed when it is built.
 */
export function terse<T extends TSchema>(schema: T): T {
  return JSON.parse(JSON.stringify(schema), (key, value) => {
    // A property may be called `description` or `title` too (a task's): its schema is an
    // object, and only the annotations, which are strings, go.
    if ((key === 'description' || key === 'title') && typeof value === 'string') return undefined
    return key === 'examples' ? undefined : value
  })
}

/** A write tool's `dry_run` flag (docs/mcp.md, "Dry runs"). */
export const DryRun = Type.Optional(
  Type.Boolean({
    description: 'true: only check, and say what it would do.',
  }),
)

/** An `Idempotency-Key` for a write tool. */
export const IdempotencyKey = Type.Optional(
  Type.String({
    minLength: 1,
    maxLength: 255,
    description: 'Retry with the same key: the first result, never a second write.',
  }),
)

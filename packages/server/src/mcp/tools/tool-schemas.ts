import Type, { type TSchema } from 'typebox'
import { TOOL_BUDGET } from '../tool-result.ts'

/** How `max_tokens` is described, wherever a tool takes it. */
export const BUDGET_NOTE = `Default ${TOOL_BUDGET.default}.`

/** How a `cursor` is described. */
export const CURSOR_NOTE = 'A next_cursor.'

/** The `max_tokens` argument every tool takes. */
export const MaxTokens = Type.Optional(
  Type.Integer({
    minimum: TOOL_BUDGET.minimum,
    maximum: TOOL_BUDGET.maximum,
    description: BUDGET_NOTE,
  }),
)

/** A page's `cursor` argument: the `next_cursor` of the previous call, as its name says. */
export const Cursor = Type.Optional(Type.String({ maxLength: 2000, description: CURSOR_NOTE }))

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
 * description of its own, and a tool's definition is read on every turn of a model. A value or
 * null is said the short way (`"type": ["string", "null"]`). Apply it to the whole object: its
 * `required` list is computed when it is built.
 */
export function terse<T extends TSchema>(schema: T): T {
  return JSON.parse(JSON.stringify(schema), (key, value) => {
    // A property may be called `description` or `title` too (a task's): its schema is an
    // object, and only the annotations, which are strings, go.
    if ((key === 'description' || key === 'title') && typeof value === 'string') return undefined
    if (key === 'examples') return undefined
    return orNullShort(value)
  })
}

/**
 * A schema with every "a value or null" said the short way (`"type": ["string", "null"]`), and
 * nothing else changed: what `tools/list` shows of every tool's arguments and results.
 */
export function shortNulls<T extends TSchema>(schema: T): T {
  return JSON.parse(JSON.stringify(schema), (_key, value) => orNullShort(value))
}

// What only a validator needs: a model writes ids and words within these without being told, and
// each is paid for on every turn. The arguments are still checked against them (mcp-server.ts).
const VALIDATOR_ONLY = new Set([
  'maxLength',
  'minLength',
  'maxItems',
  'minItems',
  'uniqueItems',
  'additionalProperties',
  'minProperties',
])

/**
 * A schema as `tools/list` shows it: without the keywords only a validator needs (lengths, item
 * counts, `additionalProperties`), with nulls said the short way. What remains tells a model what
 * to write: types, enums, formats, numeric bounds, defaults, required fields and descriptions.
 */
export function listedSchema<T extends TSchema>(schema: T): T {
  return JSON.parse(JSON.stringify(schema), (key, value) =>
    VALIDATOR_ONLY.has(key) && typeof value !== 'object'
      ? undefined
      : (key === 'minimum' || key === 'maximum') && Math.abs(value) >= STORAGE_BOUND
        ? undefined
        : oneWay(listOnly(orNullShort(value))),
  )
}

// A numeric bound this far out is what storage holds, like a length: no value a model means.
const STORAGE_BOUND = 1e12

// `{ anyOf: [X, { type: 'array', items: X }] }` listed as the list alone: a model that writes a
// list of one is understood, and the single value is still accepted.
function listOnly(value: unknown): unknown {
  const { anyOf, ...rest } = (value ?? {}) as { anyOf?: unknown[] }
  if (!Array.isArray(anyOf) || anyOf.length !== 2) return value
  const [one, many] = anyOf as { type?: unknown; items?: unknown }[]
  if (many?.type !== 'array' || JSON.stringify(many.items) !== JSON.stringify(one)) return value
  return { ...many, ...rest }
}

// Strings of several formats (a day or a time) listed as a string: the argument's description
// says which it takes, in fewer words than the alternatives.
function oneWay(value: unknown): unknown {
  const { anyOf, ...rest } = (value ?? {}) as { anyOf?: unknown[] }
  if (!Array.isArray(anyOf) || anyOf.length < 2) return value
  const strings = anyOf.every((s) => {
    const { type, format, ...other } = s as Record<string, unknown>
    return type === 'string' && typeof format === 'string' && Object.keys(other).length === 0
  })
  return strings ? { type: 'string', ...rest } : value
}

/**
 * An object schema with a description on each named property (`filters.status` for a nested
 * one): how a tool explains each argument in a few words, without changing the `/v1` schema it
 * was made from.
 */
export function described<T extends TSchema>(schema: T, descriptions: Record<string, string>): T {
  const copy = JSON.parse(JSON.stringify(schema)) as T
  for (const [path, description] of Object.entries(descriptions)) {
    let at = copy as { properties?: Record<string, Record<string, unknown>> }
    const names = path.split('.')
    for (const name of names.slice(0, -1)) at = at.properties?.[name] as typeof at
    const property = at.properties?.[names.at(-1) as string]
    if (!property) throw new Error(`No argument ${path} to describe`)
    property.description = description
  }
  return copy
}

// `{ anyOf: [{ type: T, …rest }, { type: 'null' }] }` as `{ type: [T, 'null'], …rest }`: the same
// values, in fewer words.
function orNullShort(value: unknown): unknown {
  const anyOf = (value as { anyOf?: unknown } | null)?.anyOf
  if (!Array.isArray(anyOf) || anyOf.length !== 2 || Object.keys(value as object).length !== 1)
    return value
  const [some, none] = anyOf as Record<string, unknown>[]
  const isNull = (s: Record<string, unknown> | undefined) =>
    s !== undefined && s.type === 'null' && Object.keys(s).length === 1
  if (!isNull(none) || typeof some?.type !== 'string') return value
  return { ...some, type: [some.type, 'null'] }
}

/** A write tool's `dry_run` flag (docs/mcp.md, "Dry runs"). */
export const DryRun = Type.Optional(
  Type.Boolean({
    description: 'true: check only, write nothing.',
  }),
)

/** An `Idempotency-Key` for a write tool. */
export const IdempotencyKey = Type.Optional(
  Type.String({
    minLength: 1,
    maxLength: 255,
    description: 'Retry with it: no second write.',
  }),
)

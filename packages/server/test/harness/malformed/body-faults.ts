import type { FaultFamily } from './api-draft.ts'
import { withBadText, wrongValues } from './bad-values.ts'
import { int, pick } from './draws.ts'
import type { Gen, Schema } from './fuzz-request.ts'
import { deepArray, RawJson } from './raw-json.ts'
import { surelyInvalid } from './surely-invalid.ts'

// Payloads that are not JSON or not UTF-8, and JSON meant to trip a parser: prototype keys, a BOM,
// raw control characters, bad escapes. The deep one is drawn even when not picked, as one draw.
const invalidJson = (g: Gen): (string | Buffer)[] => [
  '{',
  '{"a":',
  '{"title": "x"',
  "{'a': 1}",
  '{"a": 1,}',
  'NaN',
  '[1,]',
  'undefined',
  '{"a": "x"} trailing',
  '',
  '   ',
  '{"__proto__": {"x": 1}}',
  '{"constructor": {"prototype": {"x": 1}}}',
  `${'['.repeat(int(g, 1, 100_000))}`,
  '{"a":"\u0000"}',
  '{"a":"\t"}',
  Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]),
  '\ufeff{"a":"\\u0000"}',
  '"\\ud800"',
  '{"a":"\\u00"}',
  '{"a":"\\x41"}',
]

// Fields no body takes: unknown ones, ones the server sets itself, prototype names.
const FORBIDDEN_FIELDS = [
  '__unknown',
  'id',
  'created_at',
  'workspace_id',
  'owner_id',
  'type',
  'constructor',
]

/** One or two fields of the body given values of a wrong type; an unknown field when unsure. */
function withWrongTypes(g: Gen, body: unknown, bodySchema: Schema): unknown {
  const properties = Object.entries(bodySchema.properties ?? {}) as [string, Schema][]
  const container = (body ?? {}) as Record<string, unknown>
  const changed = new Map<string, Schema>()
  for (let i = int(g, 1, 2); i > 0 && properties.length > 0; i--) {
    const [name, schema] = pick(g, properties)
    container[name] = pick(g, wrongValues(g))
    changed.set(name, schema)
  }
  // Judged on the values that stay: a field drawn twice keeps only its second value.
  const sure = [...changed].some(([name, schema]) => surelyInvalid(container[name], schema))
  // When no replacement is certain to be refused, an unknown field makes the request so.
  if (!sure) container.__unknown = 1
  return container
}

/** `text-body`, `invalid-json`, `body-types`, `top-level`, `unknown-field`: a body to refuse. */
export const bodyFault: FaultFamily = (g, fault, draft, { bodySchema }) => {
  switch (fault) {
    case 'text-body':
      draft.body = withBadText(g, draft.body)
      break
    case 'invalid-json':
      draft.body = undefined
      draft.payload = pick(g, invalidJson(g))
      break
    case 'body-types':
      draft.body = withWrongTypes(g, draft.body, bodySchema)
      break
    case 'top-level':
      draft.body = pick(g, [
        [],
        [draft.body],
        null,
        0,
        new RawJson('1e400'),
        'x',
        true,
        deepArray(int(g, 2, 100_000)),
      ])
      break
    case 'unknown-field':
      draft.body = {
        ...(draft.body as object),
        [pick(g, FORBIDDEN_FIELDS)]: pick(g, wrongValues(g)),
      }
      break
  }
}

/**
 * A schema validator's error in the shape Ajv and TypeBox's `Value.Errors` share: where, which
 * keyword, its parameters, and the validator's own terse message.
 */
export interface SchemaError {
  readonly instancePath: string
  readonly keyword: string
  readonly params: Record<string, unknown>
  readonly message?: string
  readonly schemaPath?: string
}

/** One validation problem as the API reports it: a JSON Pointer and a sentence. */
export interface LocatedSentence {
  readonly path: string
  readonly message: string
}

const FORMATS: Record<string, string> = {
  date: 'a date (YYYY-MM-DD) from 0001-01-01 to 9999-12-31',
  'date-time': 'an RFC 3339 timestamp such as 2026-11-20T10:00:00Z, from year 0001 to 9999',
  email: 'an email address',
  uri: 'an absolute URI',
  uuid: 'a UUID',
}

const TYPES: Record<string, string> = {
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'a boolean',
  object: 'an object',
  array: 'an array',
  null: 'null',
}

// What a value at the root of a part is called, when no field can be named.
const WHOLE: Record<string, string> = {
  body: 'the body',
  querystring: 'the query string',
  params: 'the path',
  headers: 'the headers',
}

/**
 * The field a JSON Pointer names, as a person would write it: `/links/0/url` is `links[0].url`;
 * the empty pointer is the whole part (`the body`).
 */
export function fieldName(pointer: string, part = 'body'): string {
  if (pointer === '') return WHOLE[part] ?? 'the request'
  let name = ''
  for (const raw of pointer.slice(1).split('/')) {
    const segment = raw.replace(/~1/g, '/').replace(/~0/g, '~')
    name += /^\d+$/.test(segment) ? `[${segment}]` : name === '' ? segment : `.${segment}`
  }
  return name
}

const plural = (count: unknown, one: string) => `${count} ${one}${count === 1 ? '' : 's'}`
const listed = (values: unknown) =>
  (values as unknown[]).map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(', ')
const typeWords = (type: unknown) =>
  String(type)
    .split(',')
    .map((t) => TYPES[t] ?? t)
    .join(' or ')

function escapePointer(name: string): string {
  return name.replace(/~/g, '~0').replace(/\//g, '~1')
}

/**
 * Says one validator error as a sentence a person can act on, naming the field (docs/errors.md):
 * "title must be at least 1 character long.", "unknown field: colour.". The path stays a JSON
 * Pointer into the part; for a missing or unknown field it points at that field. Ajv names one
 * missing or unknown field per error, TypeBox lists them: each becomes its own sentence.
 */
export function validationSentences(error: SchemaError, part = 'body'): LocatedSentence[] {
  const at = error.instancePath
  const p = error.params
  const field = fieldName(at, part)
  const say = (message: string): LocatedSentence[] => [{ path: at, message }]
  switch (error.keyword) {
    case 'required': {
      const names = (p.requiredProperties as string[] | undefined) ?? [String(p.missingProperty)]
      return names.map((name) => {
        const path = `${at}/${escapePointer(name)}`
        return { path, message: `${fieldName(path, part)} is required.` }
      })
    }
    case 'additionalProperties': {
      const names = (p.additionalProperties as string[] | undefined) ?? [
        String(p.additionalProperty),
      ]
      return names.map((name) => ({
        path: `${at}/${escapePointer(name)}`,
        message: `unknown field: ${fieldName(`${at}/${escapePointer(name)}`, part)}.`,
      }))
    }
    case 'minLength':
      return say(`${field} must be at least ${plural(p.limit, 'character')} long.`)
    case 'maxLength':
      return say(`${field} must be at most ${plural(p.limit, 'character')} long.`)
    case 'minimum':
      return say(`${field} must be at least ${p.limit}.`)
    case 'maximum':
      return say(`${field} must be at most ${p.limit}.`)
    case 'exclusiveMinimum':
      return say(`${field} must be greater than ${p.limit}.`)
    case 'exclusiveMaximum':
      return say(`${field} must be less than ${p.limit}.`)
    case 'multipleOf':
      return say(`${field} must be a multiple of ${p.multipleOf}.`)
    case 'enum':
      return say(`${field} must be one of: ${listed(p.allowedValues)}.`)
    case 'const':
      return say(`${field} must be ${listed([p.allowedValue])}.`)
    case 'type':
      return say(`${field} must be ${typeWords(p.type)}.`)
    case 'format':
      return say(`${field} must be ${FORMATS[String(p.format)] ?? `in the format ${p.format}`}.`)
    case 'pattern':
      return say(`${field} must match the pattern ${p.pattern}.`)
    case 'minItems':
      return say(`${field} must have at least ${plural(p.limit, 'item')}.`)
    case 'maxItems':
      return say(`${field} must have at most ${plural(p.limit, 'item')}.`)
    case 'uniqueItems':
      return say(`${field} must not list the same item twice.`)
    case 'minProperties':
      return say(`${field} must have at least ${plural(p.limit, 'field')}.`)
    case 'maxProperties':
      return say(`${field} must have at most ${plural(p.limit, 'field')}.`)
    case 'anyOf':
    case 'oneOf':
      return say(`${field} does not match any of the forms it may take.`)
    case 'boolean': // TypeBox's "schema is false" beside its additionalProperties error
      return []
    case 'false schema':
    case 'not':
      return say(`${field} is not allowed here.`)
    default:
      return say(`${field} ${error.message ?? 'is invalid'}.`)
  }
}

// True when `error` is one of `union`'s branches failing: below it in the schema and the value.
function isBranchOf(error: SchemaError, union: SchemaError): boolean {
  return (
    error.schemaPath?.startsWith(`${union.schemaPath}/`) === true &&
    (error.instancePath === union.instancePath ||
      error.instancePath.startsWith(`${union.instancePath}/`))
  )
}

/**
 * The sentences of a validator's errors, a union's said once: a value that matches no branch of
 * `string | null` is "due must be a string or null.", not one sentence per branch; a union whose
 * branches fail deeper is said as a whole. Ajv reports a union's branches just before the union,
 * so they are taken back from the end of the list: the work stays linear in the errors.
 */
export function sentencesOf(errors: readonly SchemaError[], part = 'body'): LocatedSentence[] {
  const kept: SchemaError[] = []
  const unionTypes = new Map<SchemaError, string[] | null>()
  for (const error of errors) {
    if ((error.keyword === 'anyOf' || error.keyword === 'oneOf') && error.schemaPath) {
      const branches: SchemaError[] = []
      while (kept.length > 0 && isBranchOf(kept[kept.length - 1] as SchemaError, error))
        branches.push(kept.pop() as SchemaError)
      const plain = branches.every(
        (b) => b.keyword === 'type' && b.instancePath === error.instancePath,
      )
      unionTypes.set(
        error,
        branches.length > 0 && plain
          ? branches.reverse().map((b) => typeWords(b.params.type))
          : null,
      )
    }
    kept.push(error)
  }
  return kept.flatMap((error) => {
    const types = unionTypes.get(error)
    if (!types) return validationSentences(error, part)
    const field = fieldName(error.instancePath, part)
    return [{ path: error.instancePath, message: `${field} must be ${types.join(' or ')}.` }]
  })
}

import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'

// biome-ignore lint/suspicious/noExplicitAny: the document is arbitrary JSON
type Json = any

/** One way an exchange breaks the document: the operation, the status, where, and what. */
export interface Violation {
  operation: string
  status: number
  pointer: string
  message: string
}

/** A request as the crawl sent it and the answer it got, for the validator to hold together. */
export interface Exchange {
  operationId: string
  query: Record<string, string | string[]>
  headers: Record<string, string>
  /** The JSON body sent, or undefined when none was. */
  body: unknown
  status: number
  responseHeaders: Record<string, string | string[] | number | undefined>
  responseBody: string
  /** The crawl meant the request to break the document's schemas (a value out of range). */
  outOfSchema?: boolean
}

// Headers the API sends that a client reads: each one sent must be declared on its response.
const WATCHED_HEADERS = [
  'x-request-id',
  'ratelimit-limit',
  'ratelimit-remaining',
  'ratelimit-reset',
  'ratelimit-policy',
  'retry-after',
  'idempotent-replayed',
  'www-authenticate',
  'cache-control',
  'allow',
]

const BASE = 'https://workgraph.test/openapi.json'

const isJson = (mediaType: string) =>
  mediaType === 'application/json' || mediaType.endsWith('+json')

// The `detail` of a problem body; null for any other body.
function problemDetail(body: string): string | null {
  try {
    return (JSON.parse(body) as { detail?: string }).detail ?? null
  } catch {
    return null
  }
}

function escapePointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1')
}

/**
 * Checks exchanges against an OpenAPI 3.1 document with Ajv's JSON Schema 2020-12 and the
 * document's own components: the status, content type, body and headers of each answer, and
 * whether the document agrees with the server about the request (a request the server took must
 * be valid by the document; a body the server refused as invalid must be invalid by it too).
 */
export class OpenApiValidator {
  readonly #document: Json
  readonly #operations = new Map<string, { path: string; method: string; op: Json }>()
  readonly #ajv: Ajv2020
  readonly #coercing: Ajv2020
  readonly #compiled = new Map<string, ValidateFunction>()

  constructor(document: Json) {
    this.#document = document
    for (const [path, item] of Object.entries<Json>(document.paths))
      for (const [method, op] of Object.entries<Json>(item))
        this.#operations.set(op.operationId, { path, method, op })
    const make = (coerce: boolean) => {
      const ajv = new Ajv2020({
        strict: false,
        allErrors: true,
        validateSchema: false,
        ...(coerce ? { coerceTypes: 'array' as const } : {}),
      })
      addFormats.default(ajv)
      ajv.addSchema({ ...document, $id: BASE })
      return ajv
    }
    this.#ajv = make(false)
    this.#coercing = make(true)
  }

  /** Every operationId of the document's paths. */
  operationIds(): string[] {
    return [...this.#operations.keys()]
  }

  #resolve(node: Json): Json {
    let value = node
    while (value?.$ref) {
      const pointer = String(value.$ref).replace(/^#\//, '').split('/')
      value = pointer.reduce(
        (at: Json, part: string) => at?.[part.replace(/~1/g, '/').replace(/~0/g, '~')],
        this.#document,
      )
    }
    return value
  }

  // A validator of the schema at a pointer of the document (compiled once).
  #validator(pointer: string, coerce = false): ValidateFunction {
    const key = `${coerce}${pointer}`
    let validate = this.#compiled.get(key)
    if (!validate) {
      const ajv = coerce ? this.#coercing : this.#ajv
      validate = ajv.compile({ $ref: `${BASE}#${pointer}` })
      this.#compiled.set(key, validate)
    }
    return validate
  }

  // A validator of one parameter's value, wrapped so that Ajv coerces it in place.
  #parameterValidator(pointer: string): ValidateFunction {
    const key = `parameter${pointer}`
    let validate = this.#compiled.get(key)
    if (!validate) {
      validate = this.#coercing.compile({
        type: 'object',
        properties: { v: { $ref: `${BASE}#${pointer}` } },
      })
      this.#compiled.set(key, validate)
    }
    return validate
  }

  #errors(pointer: string, value: unknown, coerce = false): ErrorObject[] {
    const validate = this.#validator(pointer, coerce)
    return validate(value) ? [] : (validate.errors ?? [])
  }

  /** What is wrong with one exchange; empty when the document tells its whole truth. */
  check(exchange: Exchange): Violation[] {
    const found = this.#operations.get(exchange.operationId)
    if (!found) throw new Error(`no operation ${exchange.operationId} in the document`)
    const { path, method, op } = found
    const violations: Violation[] = []
    const status = exchange.status
    const say = (pointer: string, message: string) =>
      violations.push({ operation: `${exchange.operationId}`, status, pointer, message })
    const opPointer = `/paths/${escapePointer(path)}/${method}`
    this.#checkRequest(exchange, op, opPointer, say)
    const key = [String(status), `${String(status)[0]}XX`, 'default'].find(
      (k) => op.responses[k] !== undefined,
    )
    if (!key) {
      say('', `status ${status} is not declared (declared: ${Object.keys(op.responses)})`)
      return violations
    }
    let responsePointer = `${opPointer}/responses/${key}`
    let response = op.responses[key]
    while (response.$ref) {
      responsePointer = String(response.$ref).slice(1)
      response = this.#resolve({ $ref: response.$ref })
    }
    const sentType = String(exchange.responseHeaders['content-type'] ?? '')
      .split(';')[0]
      ?.trim()
      .toLowerCase()
    if (exchange.responseBody.length > 0) {
      const media = sentType ? response.content?.[sentType] : undefined
      if (!media) {
        say(
          '',
          `content type ${sentType || '(none)'} is not declared for ${key} (declared: ${Object.keys(response.content ?? {}).join(', ') || 'no body'})`,
        )
      } else if (media.schema) {
        const schemaPointer = `${responsePointer}/content/${escapePointer(sentType as string)}/schema`
        let body: unknown = exchange.responseBody
        if (isJson(sentType as string)) {
          try {
            body = JSON.parse(exchange.responseBody)
          } catch {
            say('', `the ${sentType} body does not parse`)
            body = undefined
          }
        }
        if (body !== undefined)
          for (const error of this.#errors(schemaPointer, body))
            say(error.instancePath, `body ${error.message}`)
      }
    }
    const declared = new Map<string, Json>()
    for (const [name, header] of Object.entries<Json>(response.headers ?? {}))
      declared.set(name.toLowerCase(), { name, header: this.#resolve(header), ref: header.$ref })
    for (const [name, { name: declaredName, header, ref }] of declared) {
      const value = exchange.responseHeaders[name]
      if (value === undefined) {
        if (header.required) say(`header:${name}`, 'a required header is missing')
        continue
      }
      if (!header.schema) continue
      const pointer = ref
        ? `${String(ref).slice(1)}/schema`
        : `${responsePointer}/headers/${escapePointer(declaredName)}/schema`
      for (const error of this.#errors(pointer, String(value), true))
        say(`header:${name}`, `header ${error.message}`)
    }
    for (const name of WATCHED_HEADERS)
      if (exchange.responseHeaders[name] !== undefined && !declared.has(name))
        say(`header:${name}`, `the header is sent but not declared on ${key}`)
    return violations
  }

  // Whether the document agrees with the server about the request.
  #checkRequest(
    exchange: Exchange,
    op: Json,
    opPointer: string,
    say: (pointer: string, message: string) => void,
  ): void {
    const took = exchange.status < 300
    const detail = exchange.status === 422 ? problemDetail(exchange.responseBody) : null
    const problems: string[] = []
    let queryProblems = 0
    const body = op.requestBody ? this.#resolve(op.requestBody) : undefined
    if (exchange.body === undefined) {
      if (body?.required) problems.push('the request body is declared required')
    } else if (body) {
      const media = Object.keys(body.content)[0] as string
      for (const error of this.#errors(
        `${opPointer}/requestBody/content/${escapePointer(media)}/schema`,
        exchange.body,
      ))
        problems.push(`request body${error.instancePath} ${error.message}`)
    }
    const parameters = (op.parameters ?? []).map((p: Json) => this.#resolve(p))
    parameters.forEach((parameter: Json, i: number) => {
      const source = parameter.in === 'query' ? exchange.query : exchange.headers
      const given =
        parameter.in === 'header'
          ? Object.entries(exchange.headers).find(
              ([name]) => name.toLowerCase() === parameter.name.toLowerCase(),
            )?.[1]
          : parameter.in === 'query'
            ? source[parameter.name]
            : undefined
      if (parameter.in === 'path' || given === undefined) return
      const ref = op.parameters[i].$ref
      const pointer = ref ? `${String(ref).slice(1)}/schema` : `${opPointer}/parameters/${i}/schema`
      // Coerced as the server coerces text (one value to a list, text to numbers).
      const value = { v: given }
      const validate = this.#parameterValidator(pointer)
      if (!validate(value)) {
        for (const error of validate.errors ?? [])
          problems.push(`${parameter.in} ${parameter.name} ${error.message}`)
        if (parameter.in === 'query') queryProblems++
      }
    })
    if (took)
      for (const problem of problems)
        say('request', `the server took a request the document refuses: ${problem}`)
    const refused =
      (exchange.outOfSchema && problems.length === 0) ||
      (detail === 'The body is invalid.' && problems.length === queryProblems) ||
      (detail === 'The query string is invalid.' && queryProblems === 0)
    if (refused)
      say(
        'request',
        `the server refused as invalid a request the document accepts: ${exchange.responseBody}`,
      )
  }
}

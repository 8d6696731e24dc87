// biome-ignore lint/suspicious/noExplicitAny: the document is JSON shaped by @fastify/swagger
type Json = any

const SCHEMA_REF = '#/components/schemas/'
// Keywords whose value is a schema, or a list or map of schemas.
const ONE_SCHEMA = ['items', 'not', 'additionalProperties', 'contains']
const SCHEMA_LISTS = ['anyOf', 'oneOf', 'allOf', 'prefixItems']

/**
 * Says the defaults of what requests send in words instead of `default` (docs/api.md,
 * "OpenAPI"): a field the server fills in when it is left out is optional to the caller, but
 * generators read `default` as "always present" (openapi-typescript's default options make such a
 * field required), so a client generated from the document could not leave it out. The server's
 * own route schemas keep `default`, which their validator applies; only the published document
 * changes. Request bodies' inline schemas and every component they reach, directly or through
 * other components, are rewritten in place.
 */
export function requestDefaultsInWords(paths: Json, schemas: Json): void {
  const reached = new Set<string>()
  const reach = (node: Json) => {
    if (Array.isArray(node)) for (const item of node) reach(item)
    else if (node && typeof node === 'object') {
      const ref = node.$ref
      if (typeof ref === 'string' && ref.startsWith(SCHEMA_REF)) {
        const name = ref.slice(SCHEMA_REF.length)
        if (!reached.has(name)) {
          reached.add(name)
          reach(schemas[name])
        }
      }
      for (const value of Object.values(node)) reach(value)
    }
  }
  for (const item of Object.values<Json>(paths)) {
    for (const operation of Object.values<Json>(item)) {
      for (const media of Object.values<Json>(operation?.requestBody?.content ?? {})) {
        reach(media.schema)
        defaultsInWords(media.schema)
      }
    }
  }
  for (const name of reached) defaultsInWords(schemas[name])
}

// One schema and the schemas inside it: each `default` becomes the end of its description.
function defaultsInWords(schema: Json): void {
  if (!schema || typeof schema !== 'object' || Array.isArray(schema)) return
  if ('default' in schema) {
    const value = schema.default
    const said = `Default: \`${typeof value === 'string' ? value : JSON.stringify(value)}\`.`
    schema.description = schema.description ? `${schema.description} ${said}` : said
    delete schema.default
  }
  for (const property of Object.values<Json>(schema.properties ?? {})) defaultsInWords(property)
  for (const key of ONE_SCHEMA) defaultsInWords(schema[key])
  for (const key of SCHEMA_LISTS) for (const each of schema[key] ?? []) defaultsInWords(each)
}

// A JSON value of the document being finished.
type Json = unknown

// Keys whose values are data (examples, defaults, enums), never schemas to look into.
const DATA_KEYS = new Set(['example', 'examples', 'default', 'enum', 'const'])

function isSchemaWithName(
  node: Record<string, Json>,
): node is Record<string, Json> & { title: string } {
  return (
    typeof node.title === 'string' &&
    ('type' in node || 'anyOf' in node || 'oneOf' in node || 'allOf' in node)
  )
}

/**
 * Moves every schema in `value` that carries a `title` into `into` (the document's
 * `components.schemas`) under that name and leaves a `$ref` in its place, innermost first, so
 * generated clients get one named type per record, page and body (docs/api.md, "OpenAPI"). Two
 * different schemas under one name are a programming error.
 */
export function hoistNamedSchemas(value: Json, into: Record<string, Json>): Json {
  const visit = (node: Json): Json => {
    if (Array.isArray(node)) return node.map(visit)
    if (node === null || typeof node !== 'object') return node
    const copy: Record<string, Json> = {}
    for (const [key, child] of Object.entries(node))
      copy[key] = DATA_KEYS.has(key) ? child : visit(child)
    if (!isSchemaWithName(copy)) return copy
    const earlier = into[copy.title]
    if (earlier !== undefined && JSON.stringify(earlier) !== JSON.stringify(copy))
      throw new Error(`Two different schemas are named ${copy.title} in the OpenAPI document`)
    into[copy.title] = copy
    return { $ref: `#/components/schemas/${copy.title}` }
  }
  return visit(value)
}

// biome-ignore lint/suspicious/noExplicitAny: the document is arbitrary JSON
type Json = any

/**
 * The OpenAPI document with every local `$ref` replaced by what it points at, so the fuzzer can
 * read each route's body and parameters where they are used. The API's schemas are not recursive.
 */
export function inlineRefs(document: Json): Json {
  const resolve = (pointer: string): Json =>
    pointer
      .slice(2)
      .split('/')
      .reduce((node, part) => node[part.replaceAll('~1', '/').replaceAll('~0', '~')], document)
  const visit = (node: Json): Json => {
    if (Array.isArray(node)) return node.map(visit)
    if (node === null || typeof node !== 'object') return node
    if (typeof node.$ref === 'string' && node.$ref.startsWith('#/'))
      return visit(resolve(node.$ref))
    return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, visit(value)]))
  }
  return visit(document)
}

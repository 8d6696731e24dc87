/**
 * JSON with object keys sorted at every level and no whitespace, so that two requests that differ
 * only in key order or formatting serialize to the same text (the idea of RFC 8785, JCS; the
 * bodies it sees were parsed by JSON.parse, so numbers and strings already have one form each).
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null'
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, item]) => item !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`
}

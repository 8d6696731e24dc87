/** How deep a request body may nest (docs/errors.md): far more than any body of the API needs. */
export const MAX_JSON_DEPTH = 64

/**
 * Whether a parsed JSON value nests more than `max` levels of arrays and objects. The walk is
 * iterative, since a 1 MiB body can nest far deeper than the call stack, and stops at the first
 * value past the limit; code that recurses (validators, serializers) may then read the value.
 */
export function nestsDeeperThan(value: unknown, max = MAX_JSON_DEPTH): boolean {
  const stack: [unknown, number][] = [[value, 0]]
  while (stack.length > 0) {
    const [current, depth] = stack.pop() as [unknown, number]
    if (current === null || typeof current !== 'object') continue
    if (depth >= max) return true
    const children = Array.isArray(current) ? current : Object.values(current)
    for (const child of children) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1])
    }
  }
  return false
}

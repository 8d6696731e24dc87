/**
 * How many times a header (by lower-case name) was sent. `request.headers` cannot tell: Node
 * keeps only the first of some headers (Host, Authorization) and joins others.
 */
export function countHeader(rawHeaders: readonly string[], name: string): number {
  let count = 0
  for (let i = 0; i < rawHeaders.length; i += 2) if (rawHeaders[i]?.toLowerCase() === name) count++
  return count
}

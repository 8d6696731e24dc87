import { validateHeaderValue } from 'node:http'

/** Where a signed-out visitor is sent: the sign-in page, remembering the page they asked for. */
export function signInPath(requested: string): string {
  const target = safeReturnTo(requested)
  return target === '/' ? '/sign-in' : `/sign-in?return_to=${encodeURIComponent(target)}`
}

// Relative paths are resolved against this origin to see where a browser would go.
const PROBE = 'http://origin.invalid'

/**
 * A `return_to` value made safe to redirect to: a path on this origin, or `/`. Anything that a
 * browser could read as another origin is refused whole, not repaired: a scheme (`https:`,
 * `javascript:`), a protocol-relative `//host`, a backslash (`/\host` is `//host` to browsers),
 * and control characters or whitespace, which some parsers strip before reading the rest. What is
 * kept comes back as the URL parser writes it: dot segments resolved and every character beyond
 * ASCII percent-encoded, so it always fits a `Location` header.
 */
export function safeReturnTo(value: unknown): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > 2000) return '/'
  if (!value.startsWith('/') || value.startsWith('//')) return '/'
  if (/[\\\s]/.test(value) || [...value].some((char) => char < ' ' || char === '\x7f')) return '/'
  // Belt and braces: whatever URL parsers make of it, it must stay on this origin.
  const url = URL.parse(value, PROBE)
  if (!url || url.origin !== PROBE) return '/'
  const target = `${url.pathname}${url.search}${url.hash}`
  // The sign-in pages themselves would loop.
  if (/^\/sign-(in|out)(\/|$)/.test(url.pathname) || !fitsLocation(target)) return '/'
  return target
}

function fitsLocation(target: string): boolean {
  try {
    validateHeaderValue('location', target)
    return target.length <= 2000 && /^[\x21-\x7e]+$/.test(target)
  } catch {
    return false
  }
}

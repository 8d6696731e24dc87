import { validateHeaderValue } from 'node:http'

/** Where a signed-out visitor is sent: the sign-in page, remembering the page they asked for. */
export function signInPath(requested: string): string {
  const target = safeReturnTo(requested)
  return target === '/' ? '/sign-in' : `/sign-in?return_to=${encodeURIComponent(target)}`
}

// The origin a relative target is read against when the caller names none. Every redirect of
// the service is a path of its own site, so where that site is does not change the answer.
const STAND_IN = 'http://origin.invalid'

/**
 * A redirect target made safe to send: the path, query and fragment of `value` read as an
 * address of `origin`, or null when it could lead anywhere else. The one rule of every redirect
 * the service builds (docs/dashboard.md, "Redirects").
 *
 * The value is parsed once, by the URL parser, against the site's origin, and kept only when the
 * result is on that origin and when the path sent is read back as the same address. The second
 * test is what dot segments need: `/..//evil.example` is on this origin until its dots are
 * resolved, and the path that results, `//evil.example`, is a protocol-relative address of another
 * host to every browser. Anything some parsers read differently from others is refused whole,
 * not repaired: a backslash (`/\host` is `//host` to browsers), control characters or
 * whitespace (which some parsers strip before reading the rest). What is kept comes back as the
 * URL parser writes it, every character beyond ASCII percent-encoded, so it always fits a
 * `Location` header.
 */
export function localTarget(value: unknown, origin: string = STAND_IN): string | null {
  if (typeof value !== 'string' || value.length === 0 || value.length > 2000) return null
  if (/[\\\s]/.test(value) || [...value].some((char) => char < ' ' || char === '\x7f')) return null
  const site = URL.parse(origin)?.origin
  if (!site || site === 'null') return null
  const url = URL.parse(value, site)
  if (!url || url.origin !== site) return null
  const target = `${url.pathname}${url.search}${url.hash}`
  const again = URL.parse(target, site)
  if (!again || again.href !== url.href || !fitsLocation(target)) return null
  return target
}

/**
 * A `return_to` value made safe to redirect to: a local target (above) given as a path, or `/`.
 * The sign-in pages themselves are refused too: they would loop.
 */
export function safeReturnTo(value: unknown): string {
  if (typeof value !== 'string' || !value.startsWith('/')) return '/'
  const target = localTarget(value)
  if (target === null || /^\/sign-(in|out)(\/|[?#]|$)/.test(target)) return '/'
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

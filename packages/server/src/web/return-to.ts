/** Where a signed-out visitor is sent: the sign-in page, remembering the page they asked for. */
export function signInPath(requested: string): string {
  const target = safeReturnTo(requested)
  return target === '/' ? '/sign-in' : `/sign-in?return_to=${encodeURIComponent(target)}`
}

/**
 * A `return_to` value made safe to redirect to: a path on this origin, or `/`. Anything that a
 * browser could read as another origin is refused whole, not repaired: a scheme (`https:`,
 * `javascript:`), a protocol-relative `//host`, a backslash (`/\host` is `//host` to browsers),
 * and control characters or whitespace, which some parsers strip before reading the rest.
 */
export function safeReturnTo(value: unknown): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > 2000) return '/'
  if (!value.startsWith('/') || value.startsWith('//')) return '/'
  if (/[\\\s]/.test(value) || [...value].some((char) => char < ' ' || char === '\x7f')) return '/'
  // Belt and braces: whatever URL parsers make of it, it must stay on this origin.
  if (new URL(value, 'http://origin.invalid').origin !== 'http://origin.invalid') return '/'
  // The sign-in pages themselves would loop.
  if (value === '/sign-in' || value.startsWith('/sign-in?') || value === '/sign-out') return '/'
  return value
}

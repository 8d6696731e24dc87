import type { Config } from '../config.ts'

/** The origins (scheme, host and port) whose pages may call `/mcp`: the API's and the app's. */
export function allowedOrigins(config: Pick<Config, 'publicUrl' | 'appUrl'>): Set<string> {
  return new Set([config.publicUrl, config.appUrl].map((url) => new URL(url).origin))
}

/**
 * Why a request's `Origin` header is refused, or null when it may call: no header (clients that
 * are not browsers send none), or exactly one of `allowed`. Another scheme or port is another
 * origin, as browsers count them; `null` (a sandboxed page, a file) and anything malformed are
 * refused.
 */
export function refusesOrigin(header: string | undefined, allowed: Set<string>): string | null {
  if (header === undefined || header === '') return null
  let origin: string
  try {
    origin = new URL(header).origin
  } catch {
    return 'The Origin header is not an origin.'
  }
  return allowed.has(origin) ? null : 'Pages of this origin may not call /mcp.'
}

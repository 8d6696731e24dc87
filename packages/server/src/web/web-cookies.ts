import type { CookieSerializeOptions } from '@fastify/cookie'

/** The names and attributes of the dashboard's cookies, which depend on PUBLIC_URL's scheme. */
export interface WebCookies {
  /** The session cookie: its value names a row of `web_sessions`. */
  readonly session: string
  /** The pre-session cookie the sign-in form's CSRF token is bound to (double submit). */
  readonly signIn: string
  /** A sign-in through the identity provider under way, sealed (sso-flow.ts). */
  readonly sso: string
  /** Attributes of all: HttpOnly, SameSite=Lax, Path=/, Secure on https. */
  readonly options: CookieSerializeOptions
}

/**
 * On https the `__Host-` prefix makes the browser refuse the cookie unless it is Secure, has
 * Path=/ and no Domain, so a sibling subdomain cannot plant or shadow it.
 */
export function webCookies(publicUrl: string): WebCookies {
  const secure = new URL(publicUrl).protocol === 'https:'
  const prefix = secure ? '__Host-' : ''
  return {
    session: `${prefix}workgraph_session`,
    signIn: `${prefix}workgraph_sign_in`,
    sso: `${prefix}workgraph_sso`,
    options: { httpOnly: true, sameSite: 'lax', path: '/', secure },
  }
}

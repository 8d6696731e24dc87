import { sessionCsrfToken } from '../../src/web/csrf.ts'
import { webCookies } from '../../src/web/web-cookies.ts'
import { hashSessionValue, startSession } from '../../src/web/web-session.ts'
import { client, type Reply, type TestApp } from './test-app.ts'

/** A form's fields in order; a name may repeat (`scopes`, `events`). */
export type Fields = [string, string][]

/** A browser signed in to the dashboard as one person, and how it sends pages' requests. */
export interface Visitor {
  /** The `Cookie` header that carries the session. */
  readonly cookie: string
  /** The session's CSRF token: the hidden `csrf` field of every form of its pages. */
  readonly csrf: string
  /** PUBLIC_URL's origin: the `Origin` of the pages' own forms. */
  readonly origin: string
  get(url: string, headers?: Record<string, string>): Promise<Reply>
  /** POSTs exactly these fields (no token added), as a forger or a tampered page would. */
  post(url: string, fields: Fields, headers?: Record<string, string>): Promise<Reply>
  /** POSTs a form as the dashboard's own page sends it: with the token, from this origin. */
  submit(url: string, fields?: Fields): Promise<Reply>
}

/**
 * Signs a person in (a session row, as a verified password makes) and returns their browser. The
 * CSRF token is the one the server puts in every form of the session's pages (web/csrf.ts).
 */
export async function signIn(
  t: TestApp,
  who: { workspaceId: string; personId: string },
): Promise<Visitor> {
  const value = await startSession(t.db.db, { ...who, now: t.clock.now() })
  const cookie = `${webCookies(t.deps.config.publicUrl).session}=${value}`
  const csrf = sessionCsrfToken(t.deps.webKeys.csrfKey, hashSessionValue(value))
  const origin = new URL(t.deps.config.publicUrl).origin
  const browser = client(t.app)
  const post = (url: string, fields: Fields, headers: Record<string, string> = {}) =>
    browser.post(url, new URLSearchParams(fields).toString(), {
      cookie,
      'content-type': 'application/x-www-form-urlencoded',
      ...headers,
    })
  return {
    cookie,
    csrf,
    origin,
    get: (url, headers = {}) => browser.get(url, { cookie, accept: 'text/html', ...headers }),
    post,
    submit: (url, fields = []) =>
      post(url, [['csrf', csrf], ...fields], { origin, 'sec-fetch-site': 'same-origin' }),
  }
}

/** The value of a page's hidden field (`form_key`), or '' when the page has none. */
export function hiddenValue(body: string, name: string): string {
  return new RegExp(`name="${name}" value="([^"]*)"`).exec(body)?.[1] ?? ''
}

/** The text of some HTML, tags removed and space collapsed: what it says. */
export function textOf(fragment: string): string {
  return fragment
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
}

/** The text of a page's <main>: what the page says, without the header and footer. */
export function mainText(body: string): string {
  return textOf(/<main[^>]*>([\s\S]*?)<\/main>/.exec(body)?.[1] ?? '')
}

import assert from 'node:assert/strict'
import { client, type Reply, type TestApp } from './test-app.ts'
import { type Fields, hiddenValue } from './web-visitor.ts'

/** A browser without a session on a public form page (sign-in, join): its cookie and token. */
export interface SignedOutBrowser {
  /** The pre-session cookie, as a `Cookie` header. */
  readonly cookie: string
  /** The form's hidden `csrf` value. */
  readonly csrf: string
  readonly page: Reply
}

/** One `Set-Cookie` line of a reply, by cookie name. */
export function setCookie(reply: Reply, name: string): string | undefined {
  return [reply.headers['set-cookie'] ?? []]
    .flat()
    .map(String)
    .find((line) => line.startsWith(`${name}=`))
}

/** Opens a public form page as a new browser, which gets the pre-session cookie. */
export async function openFormPage(t: TestApp, path: string): Promise<SignedOutBrowser> {
  const page = await client(t.app).get(path, { accept: 'text/html' })
  assert.equal(page.status, 200, page.body)
  const cookie = String(setCookie(page, 'workgraph_sign_in')).split(';')[0] as string
  return { cookie, csrf: hiddenValue(page.body, 'csrf'), page }
}

/** Posts that page's form (with its token, from this origin) as the browser would. */
export function postFormAs(
  t: TestApp,
  browser: { cookie: string; csrf: string },
  path: string,
  fields: Fields,
): Promise<Reply> {
  const payload = new URLSearchParams([['csrf', browser.csrf], ...fields]).toString()
  return client(t.app).post(path, payload, {
    'content-type': 'application/x-www-form-urlencoded',
    cookie: browser.cookie,
    origin: new URL(t.deps.config.publicUrl).origin,
    accept: 'text/html',
  })
}

/** Signs in through the dashboard's form: the reply (303 when it worked). */
export async function signInWithForm(t: TestApp, email: string, password: string): Promise<Reply> {
  const browser = await openFormPage(t, '/sign-in')
  return postFormAs(t, browser, '/sign-in', [
    ['email', email],
    ['password', password],
    ['return_to', '/'],
  ])
}

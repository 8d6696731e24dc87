import { hiddenValue } from './web-visitor.ts'

/**
 * Signs in to a running server's dashboard with an email and password, as a browser does (the
 * sign-in page's pre-session cookie and form token, then the form): the answer's status, 303
 * when the password was right. `origin` is the server's PUBLIC_URL's, when that is not `base`.
 */
export async function signInOverHttp(
  base: string,
  email: string,
  password: string,
  origin = new URL(base).origin,
): Promise<number> {
  const page = await fetch(`${base}/sign-in`, { headers: { accept: 'text/html' } })
  const cookie = (
    page.headers.getSetCookie().find((line) => /^(__Host-)?workgraph_sign_in=/.test(line)) ?? ''
  ).split(';')[0] as string
  const csrf = hiddenValue(await page.text(), 'csrf')
  const answer = await fetch(`${base}/sign-in`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'text/html',
      cookie,
      origin,
    },
    body: new URLSearchParams({ csrf, email, password, return_to: '/' }).toString(),
  })
  return answer.status
}

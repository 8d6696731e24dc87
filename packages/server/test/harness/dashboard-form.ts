import { startSession } from '../../src/web/web-session.ts'
import type { TestApp } from './test-app.ts'

/** A page's answer: its status and body. */
export interface PageReply {
  status: number
  body: string
}

/**
 * Signs a person in and submits the form of the dashboard page at `path` with `fields`, with the
 * page's own CSRF token and one-time form key, as the page's form would be sent. When the page
 * itself does not open (a 404 for someone it is not for), that answer is returned.
 */
export async function submitDashboardForm(
  t: TestApp,
  who: { workspaceId: string; personId: string },
  path: string,
  fields: [string, string][],
): Promise<PageReply> {
  const value = await startSession(t.db.db, { ...who, now: t.clock.now() })
  const headers = { cookie: `workgraph_session=${value}` }
  const page = await t.app.inject({ method: 'GET', url: path, headers })
  if (page.statusCode !== 200) return { status: page.statusCode, body: page.body }
  const hidden = (name: string) =>
    new RegExp(`name="${name}" value="([^"]+)"`).exec(page.body)?.[1] ?? ''
  const form = new URLSearchParams([
    ['csrf', hidden('csrf')],
    ['form_key', hidden('form_key')],
    ...fields,
  ])
  const posted = await t.app.inject({
    method: 'POST',
    url: path,
    headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
    payload: form.toString(),
  })
  return { status: posted.statusCode, body: posted.body }
}

import type { KyselyPlugin } from 'kysely'
import type { Db } from '../../src/db/database.ts'
import { createOAuthClient } from '../../src/oauth/oauth-clients.ts'
import { type Browser, formOn, type Page } from './browser.ts'
import { freePort } from './cli.ts'
import { startTestApp, type TestApp } from './test-app.ts'

/** A test app listening on a real port, with PUBLIC_URL (the OAuth issuer) pointing at it. */
export interface ListeningTestApp extends TestApp {
  origin: string
}

/** Starts the app on a free loopback port: OAuth clients need real HTTP, not inject. */
export async function startListeningTestApp(
  env: NodeJS.ProcessEnv = {},
  options: { plugin?: KyselyPlugin } = {},
): Promise<ListeningTestApp> {
  const port = await freePort()
  const origin = `http://127.0.0.1:${port}`
  const t = await startTestApp({ env: { PUBLIC_URL: origin, ...env }, ...options })
  await t.app.listen({ port, host: '127.0.0.1' })
  return { ...t, origin }
}

/**
 * A server-wide confidential app (as `workgraph oauth-client create --confidential` makes), which
 * anyone may authorize, with its one redirect URI; its secret for Basic client authentication.
 */
export async function confidentialApp(
  db: Db,
  redirectUri: string,
): Promise<{ id: string; secret: string }> {
  const issued = await createOAuthClient(db, {
    name: 'Web app',
    redirectUris: [redirectUri],
    public: false,
    workspaceId: null,
  })
  return { id: issued.client_id, secret: issued.client_secret as string }
}

/** How the scripted user answers the pages. */
export interface UserAnswers {
  email: string
  password: string
  decision?: 'approve' | 'deny'
  /** Which workspace to pick when the email signs in to several (by its name on the page). */
  workspace?: string
  /** The project ids to tick when consent offers a choice of projects. */
  projects?: readonly string[]
}

/** The steps a browser went through, and where it finally landed outside the server. */
export interface FlowOutcome {
  /** The URL the browser was sent to at the end (the app's redirect URI), or null. */
  callback: string | null
  /** The last page the server showed, when the flow stopped on one. */
  page: Page
  pagesSeen: string[]
}

/**
 * Drives a browser from an authorization URL through sign-in and consent, as a user would:
 * follows redirects on the server, fills the sign-in form, picks a workspace, answers consent.
 */
export async function runBrowserFlow(
  browser: Browser,
  authorizationUrl: string,
  answers: UserAnswers,
): Promise<FlowOutcome> {
  let page = await browser.get(authorizationUrl)
  const pagesSeen: string[] = []
  for (let step = 0; step < 20; step++) {
    if (page.location) {
      if (!page.location.startsWith(browser.origin))
        return { callback: page.location, page, pagesSeen }
      page = await browser.get(page.location)
      continue
    }
    if (page.status >= 400 && !page.body.includes('action='))
      return { callback: null, page, pagesSeen }
    if (page.body.includes('/login"') && page.body.includes('name="password"')) {
      // A sign-in page after a failed attempt (401, 429) ends the flow for the test to inspect.
      if (page.status !== 200) return { callback: null, page, pagesSeen }
      pagesSeen.push('sign-in')
      const form = formOn(page.body, '/login')
      page = await browser.post(form.action, {
        ...form.fields,
        email: answers.email,
        password: answers.password,
      })
      continue
    }
    if (page.body.includes('/workspace"')) {
      pagesSeen.push('workspace')
      const form = formOn(page.body, '/workspace')
      const options = [...page.body.matchAll(/value="([^"]+)"[^>]*>\s*<label[^>]*>([^<]+)/g)]
      const chosen =
        options.find((option) => option[2]?.startsWith(answers.workspace ?? '')) ?? options[0]
      page = await browser.post(form.action, { ...form.fields, choice: chosen?.[1] ?? '' })
      continue
    }
    if (page.body.includes('/confirm"')) {
      // A consent page answering a refused choice (400) ends the flow for the test to inspect.
      if (page.status !== 200) return { callback: null, page, pagesSeen }
      pagesSeen.push('consent')
      const form = formOn(page.body, '/confirm')
      page = await browser.post(form.action, {
        ...form.fields,
        ...(answers.projects && { project_ids: answers.projects }),
        decision: answers.decision ?? 'approve',
      })
      continue
    }
    return { callback: null, page, pagesSeen }
  }
  throw new Error('the authorization flow did not finish in 20 steps')
}

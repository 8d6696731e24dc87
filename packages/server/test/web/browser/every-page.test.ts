import assert from 'node:assert/strict'
import { mkdirSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { after, before, test } from 'node:test'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { DEMO_PASSWORD, demoBundle } from '../../../src/bundle/demo/demo-bundle.ts'
import type { ImportResult } from '../../../src/bundle/import-bundle.ts'
import { createOAuthClient } from '../../../src/oauth/oauth-clients.ts'
import { issuePasswordLink } from '../../../src/setup/password-links.ts'
import { issueSetupToken } from '../../../src/setup/setup-tokens.ts'
import { WebhookDispatcher } from '../../../src/webhooks/webhook-dispatcher.ts'
import {
  type ListeningApp,
  launchChromium,
  newContext,
  seriousViolations,
  signIn,
  startListeningApp,
} from '../../harness/browser-app.ts'
import { importOk } from '../../harness/bundles.ts'
import { authorizationUrl, pkcePair } from '../../harness/oauth-client-requests.ts'
import { type Receiver, reply, startReceiver } from '../../harness/receiver.ts'

// Every page of the dashboard on the demo workspace, at a phone's width and a desktop's: no
// horizontal scrolling of the page (wide content scrolls in its own box), and no serious axe
// violation. PAGES is the one list of pages; a GET route of the dashboard missing from it fails
// the test. WORKGRAPH_SCREENSHOTS=1 saves each page as docs/dashboard/{name}.png (1280 px) and
// {name}-390.png: the screenshots of docs/dashboard.md.

/** Each page the walk opens, by its screenshot's name, with the GET route that serves it. */
const PAGES = {
  'sign-in': '/sign-in',
  'sign-in-workspace': '/sign-in',
  home: '/',
  project: '/:workspaceId/:type/:id',
  task: '/:workspaceId/:type/:id',
  canvas: '/:workspaceId/:type/:id',
  okr: '/:workspaceId/:type/:id',
  person: '/:workspaceId/:type/:id',
  team: '/:workspaceId/:type/:id',
  access: '/:workspaceId/:type/:id',
  workspace: '/:workspaceId',
  'project-members': '/projects/:id/members',
  'project-member-remove': '/projects/:id/members/:memberId/remove',
  teams: '/teams',
  'team-member-remove': '/teams/:id/members/:personId/remove',
  'api-keys': '/settings/api-keys',
  'api-key-created': '/settings/api-keys',
  'api-key-rotate': '/settings/api-keys/:id/rotate',
  'api-key-revoke': '/settings/api-keys/:id/revoke',
  'workspace-tokens': '/settings/tokens',
  'workspace-token-revoke': '/settings/tokens/:id/revoke',
  'oauth-apps': '/settings/apps',
  'oauth-app-revoke': '/settings/apps/:id/revoke',
  webhooks: '/webhooks',
  'webhook-secret': '/webhooks',
  webhook: '/webhooks/:id',
  'webhook-delivery': '/webhooks/:id/deliveries/:deliveryId',
  audit: '/audit',
  'audit-forbidden': '/audit',
  people: '/people',
  'people-invited': '/people',
  'person-deactivate': '/people/:id/deactivate',
  'invitation-revoke': '/people/invitations/:id/revoke',
  join: '/join/:token',
  'join-gone': '/join/:token',
  'oauth-sign-in': '/oauth/interaction/:uid',
  'oauth-workspace': '/oauth/interaction/:uid',
  'oauth-consent': '/oauth/interaction/:uid',
  errors: '/errors',
  error: '/errors/:code',
  setup: '/setup',
  'setup-done': '/setup',
  'set-password': '/set-password/:token',
} as const
type PageName = keyof typeof PAGES

// Paths that are not pages: the API and the protocols beside it, and the stylesheet and script;
// the API reference is Scalar's page, checked in reference-pages.test.ts.
const NOT_PAGES = /^\/(v1|oauth\/(?!interaction)|\.well-known|healthz|readyz|assets|reference)/
const WIDTHS = [390, 1280] as const
const SHOTS = process.env.WORKGRAPH_SCREENSHOTS
  ? resolve(import.meta.dirname, '../../../../../docs/dashboard')
  : null

let t: ListeningApp
let browser: Browser
let ws: ImportResult
let receiver: Receiver
let dispatcher: WebhookDispatcher
let clientId: string
const visited = new Set<PageName>()

before(async () => {
  t = await startListeningApp({ WEBHOOKS_ALLOW_HTTP_LOOPBACK: 'true' })
  ws = await importOk(t.db.db, demoBundle({ today: '2026-11-23' }))
  // Ada is also in a second workspace: both sign-ins offer the choice.
  await importOk(t.db.db, {
    format: 'workgraph.bundle/v1',
    workspace: { key: 'w2', name: 'Orbit labs' },
    people: [
      {
        key: 'ada',
        name: 'Ada L',
        email: 'ada@orbit.example',
        role: 'member',
        password: DEMO_PASSWORD,
      },
    ],
  })
  // The receiver answers with JSON, so the delivery page shows a formatted response body.
  receiver = await startReceiver()
  receiver.fallback = reply(200, { 'content-type': 'application/json' }, '{"ok":true,"seen":1}')
  dispatcher = new WebhookDispatcher(t.deps, { random: () => 0.5, timeoutMs: 2000 })
  const client = await createOAuthClient(t.db.db, {
    name: 'Planner app',
    redirectUris: [new URL('/callback', receiver.url).href],
    public: true,
    workspaceId: null,
  })
  clientId = client.client_id
  browser = await launchChromium()
  if (SHOTS) mkdirSync(SHOTS, { recursive: true })
})
after(async () => {
  await browser?.close()
  await dispatcher?.stop(0)
  await receiver?.close()
  await t?.close()
})

/** The page at both widths: fits the screen, passes axe, one h1 and one main; a screenshot. */
async function visit(page: Page, name: PageName) {
  await page.waitForLoadState('load')
  assert.notEqual(await page.locator('h1').textContent(), 'Page not found', `${name}`)
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: width < 600 ? 844 : 800 })
    const overflow = await page.evaluate(() => {
      // biome-ignore lint/suspicious/noExplicitAny: the page's own globals
      const { document, innerWidth } = globalThis as any
      return document.documentElement.scrollWidth - innerWidth
    })
    assert.ok(overflow <= 0, `${name} scrolls sideways by ${overflow}px at ${width}px`)
    assert.deepEqual(await seriousViolations(page), [], `${name} at ${width}px: ${page.url()}`)
    assert.equal(await page.locator('h1').count(), 1, `${name} has one h1`)
    assert.equal(await page.locator('main').count(), 1, `${name} has one main`)
    if (SHOTS) {
      const file = width === 1280 ? `${name}.png` : `${name}-${width}.png`
      await page.screenshot({ path: join(SHOTS, file) })
    }
  }
  visited.add(name)
}

async function submit(page: Page, button: string | RegExp) {
  await Promise.all([
    page.waitForNavigation(),
    page.getByRole('button', { name: button, exact: typeof button === 'string' }).click(),
  ])
}

async function context(): Promise<BrowserContext> {
  return newContext(browser, { bypassCSP: true })
}

async function firstTeam(): Promise<string> {
  const row = await t.db.db
    .selectFrom('teams')
    .select('id')
    .where('workspace_id', '=', ws.workspace_id)
    .orderBy('id')
    .executeTakeFirstOrThrow()
  return row.id
}

// Ids are random: a resource of the kind that the whole workspace sees, whichever comes first.
async function openToAll(kind: string): Promise<string> {
  const row = await t.db.db
    .selectFrom('resource_index')
    .select('id')
    .where('workspace_id', '=', ws.workspace_id)
    .where('type', '=', kind)
    .where('ws_visible', '=', true)
    .orderBy('id')
    .executeTakeFirstOrThrow()
  return row.id
}

test('every page fits 390 and 1280 px and passes axe', async () => {
  const page = await (await context()).newPage()
  await page.goto(`${t.origin}/sign-in`)
  await visit(page, 'sign-in')
  await signIn(page, 'ada@orbit.example', DEMO_PASSWORD)
  await visit(page, 'sign-in-workspace')
  await page.getByLabel(/^Orbit \(/).check()
  await submit(page, 'Continue')
  assert.equal(new URL(page.url()).pathname, '/')
  await visit(page, 'home')
  const base = `${t.origin}/${ws.workspace_id}`
  await page.goto(base)
  await visit(page, 'workspace')
  await page.goto(`${base}/project/${ws.ids.mobile4}`)
  await visit(page, 'project')
  assert.equal(await page.getByRole('heading', { name: 'Tasks by status' }).count(), 1)
  const shown = await t.db.db
    .selectFrom('tasks')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('project_id', '=', ws.ids.mobile4 as string)
    .executeTakeFirstOrThrow()
  assert.equal(await page.locator('.column a').count(), Number(shown.n), 'every task links')
  await page.locator('.column a').first().click()
  await page.waitForURL(/\/task\//)
  await visit(page, 'task')
  await page.goto(`${base}/canvas/${await openToAll('canvas')}`)
  await visit(page, 'canvas')
  await page.goto(`${base}/okr/${await openToAll('okr')}`)
  await visit(page, 'okr')
  await page.goto(`${base}/person/${ws.ids.ada}`)
  await visit(page, 'person')
  await page.goto(`${base}/team/${await firstTeam()}`)
  await visit(page, 'team')

  // Teams and a project's members, as the workspace's owner (who may change both).
  await page.goto(`${base}/project/${ws.ids.mobile4}`)
  await page.getByRole('link', { name: 'Members and who may open it' }).click()
  await visit(page, 'project-members')
  await page
    .getByRole('link', { name: /^Remove/ })
    .first()
    .click()
  await visit(page, 'project-member-remove')
  await page.goto(`${t.origin}/teams`)
  await visit(page, 'teams')
  await page
    .getByRole('link', { name: /^Remove/ })
    .first()
    .click()
  await visit(page, 'team-member-remove')

  // API keys: none ticked to start with; the created, rotate and revoke pages.
  await page.goto(`${t.origin}/settings/api-keys`)
  await visit(page, 'api-keys')
  assert.equal(await page.locator('input[name=scopes]:checked').count(), 0, 'no scope ticked')
  await page.getByLabel('Name').fill('deploy script')
  await page.getByLabel(/^task:read/).check()
  await submit(page, 'Create key')
  await visit(page, 'api-key-created')
  await page.goto(`${t.origin}/settings/api-keys`)
  await page.getByRole('link', { name: 'Rotate deploy script' }).click()
  await visit(page, 'api-key-rotate')
  await page.goto(`${t.origin}/settings/api-keys`)
  await page.getByRole('link', { name: 'Revoke deploy script' }).click()
  await visit(page, 'api-key-revoke')
  await page.goto(`${t.origin}/settings/tokens`)
  await visit(page, 'workspace-tokens')
  await page
    .getByRole('link', { name: /^Revoke/ })
    .first()
    .click()
  await visit(page, 'workspace-token-revoke')

  // Webhooks: an endpoint made on the page, a test event delivered to the local receiver.
  await page.goto(`${t.origin}/webhooks`)
  await page.getByLabel('URL').fill(receiver.url)
  await page.getByLabel('Description (optional)').fill('Release notes builder')
  await submit(page, 'Add endpoint')
  await visit(page, 'webhook-secret')
  await page.getByRole('link', { name: 'Go to the endpoint' }).click()
  await submit(page, 'Send a test event')
  await dispatcher.drain()
  await page.reload()
  await visit(page, 'webhook')
  await page.getByRole('link', { name: 'webhook.test' }).click()
  await visit(page, 'webhook-delivery')
  await page.goto(`${t.origin}/webhooks`)
  await visit(page, 'webhooks')
  await page.goto(`${t.origin}/audit`)
  await visit(page, 'audit')

  // People: an invitation's link shown once, its join page, and what asks first.
  await page.goto(`${t.origin}/people`)
  await page.getByLabel('Email', { exact: true }).fill('sam@orbit.example')
  await page.getByLabel(/^Name/).fill('Sam Rivera')
  await submit(page, 'Invite')
  await visit(page, 'people-invited')
  const invitation = (await page.locator('#secret').textContent()) as string
  await page.goto(`${t.origin}/people`)
  await visit(page, 'people')
  await page.getByRole('link', { name: 'Revoke the invitation of sam@orbit.example' }).click()
  await visit(page, 'invitation-revoke')
  await page.goto(`${t.origin}/people`)
  await page
    .getByRole('link', { name: /^Deactivate/ })
    .last()
    .click()
  await visit(page, 'person-deactivate')
  const invitee = await (await context()).newPage()
  await invitee.goto(invitation)
  await visit(invitee, 'join')
  await invitee.goto(`${t.origin}/join/wg_inv_${'0'.repeat(38)}`)
  await visit(invitee, 'join-gone')

  // OAuth: sign-in for the app, the choice of workspace, consent; Allow makes the app's grant.
  const oauth = await (await context()).newPage()
  const { challenge } = pkcePair()
  await oauth.goto(
    authorizationUrl(t.origin, {
      response_type: 'code',
      client_id: clientId,
      redirect_uri: new URL('/callback', receiver.url).href,
      scope: 'project:read task:read workspace:read',
      state: 'walk',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    }),
  )
  await visit(oauth, 'oauth-sign-in')
  await signIn(oauth, 'ada@orbit.example', DEMO_PASSWORD)
  await visit(oauth, 'oauth-workspace')
  await oauth.getByLabel(/^Orbit \(/).check()
  await submit(oauth, 'Continue')
  await visit(oauth, 'oauth-consent')
  await submit(oauth, 'Allow')
  await page.goto(`${t.origin}/settings/apps`)
  await visit(page, 'oauth-apps')
  await page
    .getByRole('link', { name: /^Revoke/ })
    .first()
    .click()
  await visit(page, 'oauth-app-revoke')

  // A guest: the reasons a page is open to them, and the audit log's 403 page.
  const guest = await (await context()).newPage()
  await guest.goto(`${t.origin}/sign-in`)
  await signIn(guest, 'noor@brightline.agency', DEMO_PASSWORD)
  const task = await t.db.db
    .selectFrom('tasks')
    .select('id')
    .where('workspace_id', '=', ws.workspace_id)
    .where('assignee_id', '=', ws.ids.noor as string)
    .orderBy('id')
    .executeTakeFirstOrThrow()
  await guest.goto(`${base}/task/${task.id}`)
  await visit(guest, 'access')
  await guest.goto(`${t.origin}/audit`)
  await visit(guest, 'audit-forbidden')

  // The pages a problem's type leads to, open to anyone.
  const anyone = await (await context()).newPage()
  await anyone.goto(`${t.origin}/errors`)
  await visit(anyone, 'errors')
  await anyone.getByRole('link', { name: 'validation_failed' }).click()
  await visit(anyone, 'error')

  // A password link of Ada's; the first-run page, on a server of its own with no workspace.
  const link = await t.db.db.transaction().execute((trx) =>
    issuePasswordLink(trx, {
      workspaceId: ws.workspace_id,
      personId: ws.ids.ada as string,
      now: t.clock.now(),
    }),
  )
  await anyone.goto(`${t.origin}/set-password/${link}`)
  await visit(anyone, 'set-password')
  const empty = await startListeningApp()
  try {
    const first = await (await context()).newPage()
    await first.goto(
      `${empty.origin}/setup?token=${await issueSetupToken(empty.db.db, empty.clock.now())}`,
    )
    await visit(first, 'setup')
    await first.getByLabel('Workspace name').fill('Orbit')
    await first.getByLabel('Your name').fill('Ada Okafor')
    await first.getByLabel('Email').fill('ada@orbit.example')
    await first.getByLabel(/^Password/).fill(DEMO_PASSWORD)
    await submit(first, 'Create workspace')
    await visit(first, 'setup-done')
  } finally {
    await empty.close()
  }
  assert.deepEqual(
    Object.keys(PAGES).filter((name) => !visited.has(name as PageName)),
    [],
    'every page of the list was visited',
  )
})

test('every GET route of the dashboard is in the list of pages', () => {
  const listed = new Set<string>(Object.values(PAGES))
  const pages = getRoutes(t.app.printRoutes({ method: 'GET', commonPrefix: false })).filter(
    (route) => !NOT_PAGES.test(route),
  )
  assert.deepEqual(
    pages.filter((route) => !listed.has(route)),
    [],
    'add these pages to PAGES',
  )
  assert.deepEqual(
    [...listed].filter((route) => !pages.includes(route)),
    [],
    'routes of PAGES that are not registered',
  )
})

/** The full paths of Fastify's printed route tree, each parameter without its pattern. */
function getRoutes(tree: string): string[] {
  const stack: string[] = []
  const routes: string[] = []
  for (const line of tree.split('\n')) {
    const match = /^([│├└─\s]*)(\S.*?)(?: \(([A-Z, ]+)\))?$/.exec(line)
    if (!match?.[2]) continue
    const depth = (match[1] ?? '').length / 4
    const parent = depth === 0 ? '' : (stack[depth - 1] ?? '')
    const path = `${parent}${parent.endsWith('/') || match[2].startsWith('/') ? '' : '/'}${match[2]}`
    stack[depth] = path
    if (match[3]) routes.push(path.replace(/\([^/]*\)/g, ''))
  }
  return routes
}

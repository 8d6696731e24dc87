import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { Browser, Page } from 'playwright-core'
import type { ImportResult } from '../../../src/bundle/import-bundle.ts'
import {
  type ListeningApp,
  launchChromium,
  newContext,
  seriousViolations,
  signIn,
  startListeningApp,
} from '../../harness/browser-app.ts'
import { importOk, smallBundle, tokenOf } from '../../harness/bundles.ts'
import { appTokens } from '../../harness/oauth-client-requests.ts'
import { confidentialApp } from '../../harness/oauth-flow.ts'

// The credentials pages (API keys, OAuth apps, the workspace's tokens), driven in chromium:
// every secret they issue is then used against the API. Screenshots: every-page.test.ts.

const PASSWORD = 'a long test passphrase'
let t: ListeningApp
let browser: Browser
let ws: ImportResult

before(async () => {
  t = await startListeningApp()
  const bundle = smallBundle()
  bundle.people = bundle.people.map((person) => ({ ...person, password: PASSWORD }))
  ws = await importOk(t.db.db, bundle)
  browser = await launchChromium()
})
after(async () => {
  await browser?.close()
  await t?.close()
})

/** The status of `GET /v1/workspace` with a bearer token. */
async function apiStatus(token: string): Promise<number> {
  const response = await fetch(`${t.origin}/v1/workspace`, {
    headers: { authorization: `Bearer ${token}` },
  })
  await response.body?.cancel()
  return response.status
}

async function check(page: Page, name: string) {
  assert.deepEqual(await seriousViolations(page), [], `${name}: ${page.url()}`)
  assert.equal(await page.locator('h1').count(), 1, `${name} has one h1`)
}

async function signedIn(email: string) {
  const context = await newContext(browser, { bypassCSP: true })
  const page = await context.newPage()
  await page.goto(`${t.origin}/settings/api-keys`)
  await signIn(page, email, PASSWORD)
  assert.equal(new URL(page.url()).pathname, '/settings/api-keys')
  return { context, page }
}

const auditOf = (action: string) =>
  t.db.db
    .selectFrom('audit_log')
    .selectAll()
    .where('action', '=', action as never)
    .orderBy('created_at', 'desc')
    .execute()

test('a key is created with chosen scopes, shown once, rotated and revoked', async () => {
  const { context, page } = await signedIn('alice@example.test')
  await check(page, 'api-keys')
  // A member is offered every scope but the audit log's.
  assert.equal(await page.getByLabel(/audit:read/).count(), 0)
  await page.getByLabel('Name').fill('deploy script')
  // No scope is ticked to start with: the key gets only what its maker ticks.
  assert.equal(await page.locator('input[name=scopes]:checked').count(), 0)
  await page.getByLabel(/^workspace:read/).check()
  await page.getByLabel(/^task:read/).check()
  await page.getByRole('button', { name: 'Create key' }).click()
  await page.waitForURL(/\/settings\/api-keys$/)
  assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Key created')
  const secret = (await page.locator('#secret').textContent()) as string
  assert.match(secret, /^wg_key_/)
  assert.ok(await page.getByRole('button', { name: 'Copy' }).isVisible(), 'app.js shows Copy')
  await check(page, 'api-key-created')
  assert.equal(await apiStatus(secret), 200)
  const [created] = await auditOf('api_key.created')
  assert.equal(created?.via, 'web')
  assert.equal(created?.actor_id, ws.ids.alice)
  assert.equal(created?.token_kind, 'web_session')
  const keys = () =>
    t.db.db.selectFrom('tokens').selectAll().where('name', '=', 'deploy script').execute()
  assert.deepEqual(
    (await keys()).map((k) => k.scopes.sort()),
    [['task:read', 'workspace:read']],
  )

  // Submitting the same form again (a reload) writes nothing and never shows the secret again.
  await page.reload()
  assert.equal(await page.locator('#secret').count(), 0)
  assert.equal((await keys()).length, 1)
  await page.goto(`${t.origin}/settings/api-keys`)
  assert.equal(await page.getByText(secret).count(), 0)
  assert.equal(await page.getByRole('cell', { name: /^deploy script/ }).count(), 1)

  // Rotate with no overlap: the new secret works, the old one stops at once.
  await page.getByRole('link', { name: 'Rotate deploy script' }).click()
  await check(page, 'api-key-rotate')
  await page.getByLabel('The old key').selectOption('0')
  await page.getByRole('button', { name: 'Rotate “deploy script”' }).click()
  assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Key rotated')
  const rotated = (await page.locator('#secret').textContent()) as string
  assert.notEqual(rotated, secret)
  assert.equal(await apiStatus(rotated), 200)
  assert.equal(await apiStatus(secret), 401)

  // Rotate with the default overlap (1 day): both keys work, the old one says until when.
  await page.goto(`${t.origin}/settings/api-keys`)
  await page.getByRole('link', { name: 'Rotate deploy script' }).click()
  await page.getByRole('button', { name: 'Rotate “deploy script”' }).click()
  const third = (await page.locator('#secret').textContent()) as string
  assert.equal(await apiStatus(third), 200)
  assert.equal(await apiStatus(rotated), 200)
  await page.goto(`${t.origin}/settings/api-keys`)
  assert.equal(await page.getByRole('row', { name: /^deploy script.*rotating until/ }).count(), 1)

  // Revoke, through the confirmation: then the key gets 401.
  const active = page.getByRole('row', { name: /^deploy script.*active/ })
  await active.getByRole('link', { name: /^Revoke/ }).click()
  await check(page, 'api-key-revoke')
  await page.getByRole('button', { name: /^Revoke the key “deploy script”/ }).click()
  await page.waitForURL(/\/settings\/api-keys$/)
  assert.equal(await apiStatus(third), 401)
  const [revoked] = await auditOf('token.revoked')
  assert.equal(revoked?.via, 'web')
  await context.close()
})

test('a forged form asking for scopes beyond the role is refused and creates nothing', async () => {
  const { context, page } = await signedIn('bob@example.test')
  const before = await t.db.db.selectFrom('tokens').select('id').execute()
  // The page's own form, with a checkbox the page never offers a member.
  await page.getByLabel('Name').fill('too much')
  await page
    .locator('ul.checks')
    .first()
    .evaluate((list) => {
      list.insertAdjacentHTML(
        'beforeend',
        '<li><input type="checkbox" name="scopes" value="audit:read" checked id="x"></li>',
      )
    })
  const [response] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === 'POST'),
    page.getByRole('button', { name: 'Create key' }).click(),
  ])
  assert.equal(response.status(), 403)
  assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Not done')
  assert.match((await page.locator('main').textContent()) as string, /audit:read/)
  assert.equal((await t.db.db.selectFrom('tokens').select('id').execute()).length, before.length)
  // No name, or no scope: a 422 page with the form again, nothing made.
  await page.goto(`${t.origin}/settings/api-keys`)
  // Nothing ticked (as the form starts), submitted.
  await page.getByLabel('Name').fill('nothing')
  const [empty] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === 'POST'),
    page.getByRole('button', { name: 'Create key' }).click(),
  ])
  assert.equal(empty.status(), 422)
  assert.equal(await page.getByRole('alert').textContent(), 'Choose at least one scope.')
  assert.equal((await t.db.db.selectFrom('tokens').select('id').execute()).length, before.length)
  await context.close()
})

test('an app the person authorized is listed and revoked, and its token is refused', async () => {
  const redirectUri = 'http://127.0.0.1:9/callback'
  const client = await confidentialApp(t.db.db, redirectUri)
  const user = { email: 'gus@partner.test', password: PASSWORD }
  const { tokens } = await appTokens(t.origin, client, {
    redirectUri,
    scope: 'workspace:read people:read',
    user,
  })
  const accessToken = tokens.access_token as string
  assert.equal(await apiStatus(accessToken), 200)
  const { context, page } = await signedIn(user.email)
  await page.getByRole('link', { name: 'OAuth apps' }).click()
  await page.waitForURL(/\/settings\/apps$/)
  const row = page.getByRole('row', { name: /^Web app/ })
  assert.match((await row.textContent()) as string, /people:read.*workspace:read/)
  await check(page, 'oauth-apps')
  await row.getByRole('link', { name: 'Revoke Web app' }).click()
  await check(page, 'oauth-app-revoke')
  await page.getByRole('button', { name: 'Revoke the app “Web app”' }).click()
  await page.waitForURL(/\/settings\/apps$/)
  assert.equal(await page.getByRole('row', { name: /^Web app/ }).count(), 0)
  assert.equal(await apiStatus(accessToken), 401)
  const [revoked] = await auditOf('oauth_grant.revoked')
  assert.equal(revoked?.via, 'web')
  assert.equal(revoked?.actor_id, ws.ids.gus)
  await context.close()
})

test('a member gets the 404 page for the workspace tokens page and its revocations', async () => {
  const { context, page } = await signedIn('alice@example.test')
  assert.equal(await page.getByRole('link', { name: 'Workspace tokens' }).count(), 0)
  const unknown = await page.goto(`${t.origin}/settings/nothing-here`)
  const unknownBody = await unknown?.text()
  const hidden = await page.goto(`${t.origin}/settings/tokens`)
  assert.equal(hidden?.status(), 404)
  assert.equal(await hidden?.text(), unknownBody)
  // A well-formed revocation of someone else's key, with the page's own CSRF token: a 404 too.
  await page.goto(`${t.origin}/settings/api-keys`)
  const csrf = await page.locator('input[name=csrf]').first().inputValue()
  const bobKey = await t.db.db
    .selectFrom('tokens')
    .select('id')
    .where('person_id', '=', ws.ids.bob as string)
    .executeTakeFirstOrThrow()
  for (const list of ['/settings/tokens', '/settings/api-keys']) {
    const response = await page.request.post(`${t.origin}${list}/${bobKey.id}/revoke`, {
      form: { csrf },
      headers: { origin: t.origin },
    })
    assert.equal(response.status(), 404)
  }
  assert.equal(await apiStatus(tokenOf(ws, 'bob-key')), 200)
  await context.close()
})

test("an admin sees every credential, makes a workspace token and revokes another's key", async () => {
  const { context, page } = await signedIn('adam@example.test')
  await page.getByRole('link', { name: 'Workspace tokens' }).click()
  await page.waitForURL(/\/settings\/tokens$/)
  const bobRow = page.getByRole('row', { name: /^bob-key/ })
  assert.match((await bobRow.textContent()) as string, /Bob Member/)
  assert.match(
    (await page.getByRole('row', { name: /^bot-token/ }).textContent()) as string,
    /Workspace token\s*Bot/,
  )
  await check(page, 'workspace-tokens')

  await page.getByLabel('Name', { exact: true }).fill('ci')
  await page.getByLabel("New integration's name").fill('CI runner')
  for (const box of await page.locator('input[name=scopes]').all()) await box.uncheck()
  await page.getByLabel(/^workspace:read/).check()
  await page.getByRole('button', { name: 'Create token' }).click()
  assert.equal(
    await page.getByRole('heading', { level: 1 }).textContent(),
    'Workspace token created',
  )
  const secret = (await page.locator('#secret').textContent()) as string
  assert.match(secret, /^wg_wst_/)
  assert.equal(await apiStatus(secret), 200)
  const [created] = await auditOf('workspace_token.created')
  assert.equal(created?.via, 'web')
  assert.equal(created?.actor_id, ws.ids.adam)
  // The API's audit log shows the dashboard's write like any other, marked as made on the web.
  const audit = await fetch(`${t.origin}/v1/audit?action=workspace_token.created`, {
    headers: { authorization: `Bearer ${tokenOf(ws, 'olive-key')}` },
  })
  assert.equal(audit.status, 200)
  const entries = ((await audit.json()) as { data: unknown }).data as {
    via: string
    actor_id: string
  }[]
  assert.deepEqual(
    entries.map((entry) => [entry.via, entry.actor_id]),
    [['web', ws.ids.adam]],
  )

  await page.goto(`${t.origin}/settings/tokens`)
  assert.match((await page.getByRole('row', { name: /^ci/ }).textContent()) as string, /CI runner/)
  await page
    .getByRole('row', { name: /^bob-key/ })
    .getByRole('link', { name: /^Revoke/ })
    .click()
  await page.getByRole('button', { name: /^Revoke the key “bob-key”/ }).click()
  await page.waitForURL(/\/settings\/tokens$/)
  assert.equal(await apiStatus(tokenOf(ws, 'bob-key')), 401)
  assert.match(
    (await page.getByRole('row', { name: /^bob-key/ }).textContent()) as string,
    /revoked/,
  )
  await context.close()
})

test("dashboard writes spend the person's write budget: over it, a 429 page", async () => {
  const limited = await startListeningApp({ RATE_LIMIT_WRITES_PER_MINUTE: '1' })
  try {
    const bundle = smallBundle()
    bundle.people = bundle.people.map((person) => ({ ...person, password: PASSWORD }))
    const small = await importOk(limited.db.db, bundle)
    const context = await newContext(browser)
    const page = await context.newPage()
    await page.goto(`${limited.origin}/settings/api-keys`)
    await signIn(page, 'alice@example.test', PASSWORD)
    for (const [key, status] of [
      ['narrow-key', 303],
      ['alice-key', 429],
    ] as const) {
      await page.goto(`${limited.origin}/settings/api-keys`)
      await page
        .getByRole('row', { name: new RegExp(`^${key}`) })
        .getByRole('link', { name: /^Revoke/ })
        .click()
      const [response] = await Promise.all([
        page.waitForResponse((r) => r.request().method() === 'POST'),
        page.getByRole('button', { name: /^Revoke the key/ }).click(),
      ])
      assert.equal(response.status(), status)
    }
    assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Not done')
    const alive = await fetch(`${limited.origin}/v1/workspace`, {
      headers: { authorization: `Bearer ${tokenOf(small, 'alice-key')}` },
    })
    assert.equal(alive.status, 200)
    await context.close()
  } finally {
    await limited.close()
  }
})

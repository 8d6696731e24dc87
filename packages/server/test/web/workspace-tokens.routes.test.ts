import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { ImportResult } from '../../src/bundle/import-bundle.ts'
import { importOk, smallBundle } from '../harness/bundles.ts'
import { appTokens } from '../harness/oauth-client-requests.ts'
import {
  confidentialApp,
  type ListeningTestApp,
  startListeningTestApp,
} from '../harness/oauth-flow.ts'
import { contentState } from '../harness/row-counts.ts'
import { client } from '../harness/test-app.ts'
import {
  type Fields,
  hiddenValue,
  mainText,
  signIn,
  textOf,
  type Visitor,
} from '../harness/web-visitor.ts'

// The workspace's credentials page (web/workspace-tokens.routes.ts), for owners and admins: every
// key, token and authorized app with its owner, the workspace token form, and revocation of any of
// them (tokens and OAuth grants). The revocation pages' common behaviour is
// credential-revoke.routes.test.ts's; the page in a browser, browser/credentials-pages.

const TOKENS = '/settings/tokens'
const PASSWORD = 'a long test passphrase'
const WEB_URI = 'https://app.example.test/cb'
// What the form's own refusals may change: nothing, integrations included.
const EXTRA = ['integrations', 'oauth_artifacts']

let t: ListeningTestApp
let ws: ImportResult
let grantId: string
let appToken: string
before(async () => {
  t = await startListeningTestApp({ OAUTH_SIGN_INS_PER_MINUTE: '100000' })
  const bundle = smallBundle()
  for (const person of bundle.people) person.password = PASSWORD
  // An integration that is in no project: a token for it opens nothing its maker cannot.
  bundle.integrations = [...(bundle.integrations ?? []), { key: 'helper', name: 'Helper' }]
  ws = await importOk(t.db.db, bundle)
  const app = await confidentialApp(t.db.db, WEB_URI)
  const user = { email: 'alice@example.test', password: PASSWORD }
  const { tokens } = await appTokens(t.origin, app, {
    redirectUri: WEB_URI,
    scope: 'project:read',
    user,
  })
  appToken = tokens.access_token
  const grant = await t.db.db
    .selectFrom('oauth_artifacts')
    .select('grant_id')
    .where('model', '=', 'Grant')
    .executeTakeFirstOrThrow()
  grantId = grant.grant_id as string
})
after(() => t.close())

const as = (person: string) =>
  signIn(t, { workspaceId: ws.workspace_id, personId: ws.ids[person] as string })
const state = () => contentState(t.db.db, EXTRA)
// A refusal by the command is kept as the answer of the form's key: that table may change.
const written = async () => {
  const { idempotency_keys: _stored, ...rest } = await contentState(t.db.db, EXTRA)
  return rest
}
const secretOn = (body: string) => /<code id="secret"[^>]*>(wg_wst_[^<]+)<\/code>/.exec(body)?.[1]
const tokensNamed = (name: string) =>
  t.db.db.selectFrom('tokens').selectAll().where('name', '=', name).execute()

/** Submits the page's own form (with its one-time key) with these fields. */
async function create(visitor: Visitor, fields: Fields) {
  const page = await visitor.get(TOKENS)
  const form_key = hiddenValue(page.body, 'form_key')
  return visitor.submit(TOKENS, [['form_key', form_key], ...fields])
}

test('signed out, the page redirects to sign-in and back, and a POST writes nothing', async () => {
  const before = await state()
  const anonymous = client(t.app)
  const page = await anonymous.get(TOKENS)
  assert.equal(page.status, 303)
  assert.equal(page.headers.location, `/sign-in?return_to=${encodeURIComponent(TOKENS)}`)
  const posted = await anonymous.post(TOKENS, 'name=x&integration=new&integration_name=y', {
    'content-type': 'application/x-www-form-urlencoded',
  })
  assert.equal(posted.status, 303)
  assert.deepEqual(await state(), before)
})

test('for a member or guest, the page and its form are the 404 of an unknown path', async () => {
  for (const person of ['alice', 'gus']) {
    const visitor = await as(person)
    const unknown = await visitor.get('/settings/nothing-here')
    assert.equal(unknown.status, 404)
    const page = await visitor.get(TOKENS)
    assert.equal(page.status, 404, person)
    assert.equal(page.body, unknown.body, `${person}: the same page as an unknown path`)
    const before = await state()
    const posted = await visitor.submit(TOKENS, [
      ['name', 'sneaky'],
      ['integration', 'new'],
      ['integration_name', 'Sneaky bot'],
      ['scopes', 'workspace:read'],
    ])
    assert.equal(posted.status, 404, person)
    assert.equal(posted.body, unknown.body, person)
    assert.deepEqual(await state(), before, person)
  }
})

test('an admin sees every key, token and authorized app, each with its owner', async () => {
  const page = await (await as('adam')).get(TOKENS)
  assert.equal(page.status, 200)
  const row = (name: string) =>
    textOf(new RegExp(`<tr><td>${name} <span[\\s\\S]*?</tr>`).exec(page.body)?.[0] ?? '')
  assert.match(row('bob-key'), /^bob-key …\w{4} API key Bob Member /)
  assert.match(row('olive-key'), /^olive-key …\w{4} API key Olive Owner /)
  assert.match(row('bot-token'), /^bot-token …\w{4} Workspace token Bot /)
  const grant = textOf(/<tr><td>Web app<\/td>[\s\S]*?<\/tr>/.exec(page.body)?.[0] ?? '')
  assert.match(grant, /^Web app Alice Member project:read /)
  assert.match(page.body, new RegExp(`href="${TOKENS}/${grantId}/revoke"`))
  // The form: existing integrations to choose, every scope of the role.
  assert.match(page.body, new RegExp(`<option value="${ws.ids.helper}">Helper</option>`))
  assert.match(page.body, /value="audit:read"\s+>/)
  // No scope is ticked to start with: the token gets only what its maker chooses.
  assert.match(page.body, /value="task:read"/)
  assert.doesNotMatch(page.body, /name="scopes"[^>]*checked/)
  assert.match(page.body, /value="task:write"\s+>/)
})

test('a token for a new integration: 201, secret once, acting as it, audited', async () => {
  const adam = await as('adam')
  const form_key = hiddenValue((await adam.get(TOKENS)).body, 'form_key')
  const fields: Fields = [
    ['form_key', form_key],
    ['name', ' ci '],
    ['integration', 'new'],
    ['integration_name', 'CI runner'],
    ['scopes', 'workspace:read'],
  ]
  const reply = await adam.submit(TOKENS, fields)
  assert.equal(reply.status, 201, mainText(reply.body))
  assert.match(
    mainText(reply.body),
    /^Workspace token created The token “ci” acts as its integration with 1 scopes\./,
  )
  const secret = secretOn(reply.body) as string
  assert.ok(secret, 'the secret is on the page')
  assert.equal((await client(t.app, secret).get('/v1/workspace')).status, 200)
  const [row] = await tokensNamed('ci')
  assert.equal(row?.kind, 'workspace_token')
  assert.deepEqual(row?.scopes, ['workspace:read'])
  const integration = await t.db.db
    .selectFrom('integrations')
    .select('name')
    .where('id', '=', row?.integration_id as string)
    .executeTakeFirstOrThrow()
  assert.equal(integration.name, 'CI runner')
  const audit = await t.db.db
    .selectFrom('audit_log')
    .selectAll()
    .where('resource_id', '=', row?.id as string)
    .execute()
  assert.deepEqual(
    audit.map((entry) => [entry.action, entry.via, entry.actor_id]),
    [['workspace_token.created', 'web', ws.ids.adam]],
  )
  // Sent again with the same form key: no second token, and no secret.
  const again = await adam.submit(TOKENS, fields)
  assert.equal(again.status, 201)
  assert.equal(secretOn(again.body), undefined)
  assert.equal((await tokensNamed('ci')).length, 1)
})

test('a token for an existing integration acts as that integration', async () => {
  const reply = await create(await as('olive'), [
    ['name', 'helper token'],
    ['integration', ws.ids.helper as string],
    ['scopes', 'project:read'],
  ])
  assert.equal(reply.status, 201, mainText(reply.body))
  const [row] = await tokensNamed('helper token')
  assert.equal(row?.integration_id, ws.ids.helper)
  const projects = await client(t.app, secretOn(reply.body) as string).get('/v1/projects')
  assert.equal(projects.status, 200)
  assert.deepEqual(projects.json.data, [], 'the helper is in no project yet')
})

test('a name, a new integration name and a scope are required: 422, nothing written', async () => {
  const adam = await as('adam')
  const cases: [string, Fields, string][] = [
    [
      'no name',
      [
        ['name', ''],
        ['integration', 'new'],
        ['integration_name', 'X'],
        ['scopes', 'task:read'],
      ],
      'Give the token a name (1 to 200 characters).',
    ],
    [
      'a long name',
      [
        ['name', 'n'.repeat(201)],
        ['integration', 'new'],
        ['integration_name', 'X'],
        ['scopes', 'task:read'],
      ],
      'Give the token a name (1 to 200 characters).',
    ],
    [
      'a new integration without a name',
      [
        ['name', 'kept'],
        ['integration', 'new'],
        ['integration_name', ' '],
        ['scopes', 'task:read'],
      ],
      'Give the new integration a name (1 to 200 characters).',
    ],
    [
      'no scope',
      [
        ['name', 'kept'],
        ['integration', 'new'],
        ['integration_name', 'X'],
      ],
      'Choose at least one scope.',
    ],
  ]
  const before = await state()
  for (const [what, fields, message] of cases) {
    const reply = await create(adam, fields)
    assert.equal(reply.status, 422, what)
    assert.equal(/<p class="error" role="alert">([^<]*)<\/p>/.exec(reply.body)?.[1], message, what)
    assert.match(reply.body, /<h1>Workspace tokens<\/h1>/, what)
  }
  const refused = await create(adam, [
    ['name', 'kept'],
    ['integration', 'new'],
  ])
  assert.match(refused.body, /id="token-name" name="name" required maxlength="200" value="kept"/)
  assert.deepEqual(await state(), before)
})

test('an integration not of the workspace is the 404 page; no token is made', async () => {
  const adam = await as('adam')
  const before = await written()
  for (const integration of [`itg_${'0'.repeat(26)}`, ws.ids.alice as string, '']) {
    const reply = await create(adam, [
      ['name', 'orphan'],
      ['integration', integration],
      ['scopes', 'task:read'],
    ])
    assert.equal(reply.status, 404, `integration ${JSON.stringify(integration)}`)
    assert.match(reply.body, /<h1>Page not found<\/h1>/)
  }
  assert.deepEqual(await written(), before)
})

test('a cross-site or tokenless token form is a 403 that writes nothing', async () => {
  const adam = await as('adam')
  const fields: Fields = [
    ['name', 'forged'],
    ['integration', 'new'],
    ['integration_name', 'Forged bot'],
    ['scopes', 'task:read'],
  ]
  const before = await state()
  for (const [what, form, headers] of [
    ['another origin', [['csrf', adam.csrf], ...fields], { origin: 'https://evil.example' }],
    ['a cross-site fetch', [['csrf', adam.csrf], ...fields], { 'sec-fetch-site': 'cross-site' }],
    ['no token', fields, { origin: adam.origin }],
  ] as [string, Fields, Record<string, string>][]) {
    const reply = await adam.post(TOKENS, form, headers)
    assert.equal(reply.status, 403, what)
    assert.match(reply.body, /<h1>Form expired<\/h1>/, what)
  }
  assert.deepEqual(await state(), before)
})

test("an admin revokes anyone's key or token; once revoked it is not offered", async () => {
  const adam = await as('adam')
  for (const key of ['bob-key', 'bot-token']) {
    const secret = (ws.api_keys[key] ?? ws.workspace_tokens[key]) as { id: string; token: string }
    assert.equal((await client(t.app, secret.token).get('/v1/workspace')).status, 200, key)
    const reply = await adam.submit(`${TOKENS}/${secret.id}/revoke`)
    assert.equal(reply.status, 303, `${key}: ${mainText(reply.body)}`)
    assert.equal(reply.headers.location, TOKENS)
    assert.equal((await client(t.app, secret.token).get('/v1/workspace')).status, 401, key)
    const before = await state()
    assert.equal((await adam.get(`${TOKENS}/${secret.id}/revoke`)).status, 404, key)
    assert.equal((await adam.submit(`${TOKENS}/${secret.id}/revoke`)).status, 404, key)
    assert.deepEqual(await state(), before, key)
  }
  const page = await adam.get(TOKENS)
  assert.match(
    textOf(/<tr><td>bob-key <span[\s\S]*?<\/tr>/.exec(page.body)?.[0] ?? ''),
    / revoked$/,
  )
  assert.ok(!page.body.includes(`${TOKENS}/${ws.api_keys['bob-key']?.id}/revoke`), 'no link')
})

test("an admin revokes a person's authorized app: its tokens stop at once", async () => {
  const adam = await as('adam')
  assert.equal((await client(t.app, appToken).get('/v1/projects')).status, 200)
  const confirm = await adam.get(`${TOKENS}/${grantId}/revoke`)
  assert.equal(confirm.status, 200)
  assert.match(
    mainText(confirm.body),
    /^Revoke Revoke the app “Web app”\? Its tokens and the keys made through it stop working/,
  )
  const reply = await adam.submit(`${TOKENS}/${grantId}/revoke`)
  assert.equal(reply.status, 303, mainText(reply.body))
  assert.equal(reply.headers.location, TOKENS)
  assert.equal((await client(t.app, appToken).get('/v1/projects')).status, 401)
  const left = await t.db.db
    .selectFrom('oauth_artifacts')
    .select('model')
    .where('grant_id', '=', grantId)
    .execute()
  assert.deepEqual(left, [], 'the consent and every token of the grant are gone')
  const audit = await t.db.db
    .selectFrom('audit_log')
    .select(['action', 'via', 'actor_id'])
    .where('resource_id', '=', grantId)
    .where('action', '=', 'oauth_grant.revoked')
    .execute()
  assert.deepEqual(audit, [{ action: 'oauth_grant.revoked', via: 'web', actor_id: ws.ids.adam }])
  const page = await adam.get(TOKENS)
  assert.match(page.body, /No app is authorized\./)
  assert.equal((await adam.get(`${TOKENS}/${grantId}/revoke`)).status, 404, 'gone: not offered')
})

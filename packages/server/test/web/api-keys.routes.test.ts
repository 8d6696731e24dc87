import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { ImportResult } from '../../src/bundle/import-bundle.ts'
import { importOk, smallBundle } from '../harness/bundles.ts'
import { contentState } from '../harness/row-counts.ts'
import { client, startTestApp, type TestApp } from '../harness/test-app.ts'
import { type Fields, hiddenValue, mainText, signIn, type Visitor } from '../harness/web-visitor.ts'

// The API keys pages (web/api-keys.routes.ts): the person's own keys, create and rotate. The
// revocation pages they register are credential-revoke.routes.test.ts's subject; the fence and
// end of a new key, key-limits.test.ts's; the same pages in a browser, browser/credentials-pages.

const PAGE = '/settings/api-keys'
const UNKNOWN = `key_${'0'.repeat(26)}`
const NAMELESS = 'Give the key a name (1 to 200 characters).'

let t: TestApp
let ws: ImportResult
before(async () => {
  t = await startTestApp({ env: { PUBLIC_URL: 'http://127.0.0.1:8080' } })
  ws = await importOk(t.db.db, smallBundle())
})
after(() => t.close())

const as = (person: string) =>
  signIn(t, { workspaceId: ws.workspace_id, personId: ws.ids[person] as string })
const keyId = (key: string) => ws.api_keys[key]?.id as string
const apiStatus = async (token: string, path = '/v1/workspace') =>
  (await client(t.app, token).get(path)).status
const secretOn = (body: string) => /<code id="secret"[^>]*>(wg_key_[^<]+)<\/code>/.exec(body)?.[1]
const keysNamed = (name: string) =>
  t.db.db.selectFrom('tokens').selectAll().where('name', '=', name).orderBy('created_at').execute()
const state = () => contentState(t.db.db)
// A refusal by the command is kept as the answer of the form's key (a resubmission gets it
// again): that table may change, nothing else.
const written = async () => {
  const { idempotency_keys: _stored, ...rest } = await contentState(t.db.db)
  return rest
}

/** Submits the page's own create form (with its one-time form key) with these fields. */
async function create(visitor: Visitor, fields: Fields) {
  const form_key = hiddenValue((await visitor.get(PAGE)).body, 'form_key')
  assert.ok(form_key, 'the page has a form key')
  return visitor.submit(PAGE, [['form_key', form_key], ...fields])
}

/** Makes a key on the page and returns its id and secret. */
async function made(visitor: Visitor, name: string) {
  const reply = await create(visitor, [
    ['name', name],
    ['scopes', 'workspace:read'],
    ['lifetime', ''],
  ])
  assert.equal(reply.status, 201, mainText(reply.body))
  const [row] = await keysNamed(name)
  return { id: row?.id as string, secret: secretOn(reply.body) as string }
}

/** Submits the rotation form of a key with this overlap. */
async function rotate(visitor: Visitor, id: string, overlap: string) {
  const form_key = hiddenValue((await visitor.get(`${PAGE}/${id}/rotate`)).body, 'form_key')
  return visitor.submit(`${PAGE}/${id}/rotate`, [
    ['form_key', form_key],
    ['overlap_seconds', overlap],
  ])
}

test('signed out, the pages redirect to sign-in and back, and a POST writes nothing', async () => {
  const before = await state()
  const anonymous = client(t.app)
  for (const path of [PAGE, `${PAGE}/${keyId('alice-key')}/rotate`]) {
    const reply = await anonymous.get(path)
    assert.equal(reply.status, 303, path)
    assert.equal(reply.headers.location, `/sign-in?return_to=${encodeURIComponent(path)}`)
    assert.equal(reply.headers['cache-control'], 'no-store')
  }
  const posted = await anonymous.post(PAGE, 'name=x&scopes=task%3Aread&lifetime=', {
    'content-type': 'application/x-www-form-urlencoded',
  })
  assert.equal(posted.status, 303)
  assert.match(String(posted.headers.location), /^\/sign-in/)
  assert.deepEqual(await state(), before)
})

test("the list shows only the person's own keys and offers the scopes of their role", async () => {
  const alice = await as('alice')
  const page = await alice.get(PAGE)
  assert.equal(page.status, 200)
  assert.equal(page.headers['content-type'], 'text/html; charset=utf-8')
  assert.equal(page.headers['cache-control'], 'no-store')
  assert.match(page.body, /<h1>API keys<\/h1>/)
  assert.match(page.body, />alice-key </)
  assert.match(page.body, />narrow-key </)
  for (const other of ['bob-key', 'olive-key', 'adam-key'])
    assert.ok(!page.body.includes(other), `${other} is not alice's`)
  assert.match(page.body, new RegExp(`href="${PAGE}/${keyId('alice-key')}/rotate"`))
  const offered = (body: string) =>
    [...body.matchAll(/name="scopes" value="([^"]+)"/g)].map((m) => m[1])
  assert.ok(offered(page.body).includes('token:manage'))
  assert.ok(!offered(page.body).includes('audit:read'), 'a member is not offered audit:read')
  assert.ok(offered((await (await as('olive')).get(PAGE)).body).includes('audit:read'))
  assert.match(page.body, new RegExp(`name="csrf" value="${alice.csrf}"`))
  assert.match(hiddenValue(page.body, 'form_key'), /^[A-Za-z0-9_-]{22}$/)
})

test('a new key: 201, its secret shown this once, working with the scopes chosen', async () => {
  const alice = await as('alice')
  const reply = await create(alice, [
    ['name', '  deploy script  '],
    ['scopes', 'workspace:read'],
    ['scopes', 'task:read'],
    ['lifetime', ''],
  ])
  assert.equal(reply.status, 201, mainText(reply.body))
  assert.match(
    mainText(reply.body),
    /^Key created The key “deploy script” acts as you with 2 scopes/,
  )
  const secret = secretOn(reply.body) as string
  assert.ok(secret, 'the secret is on the page')
  assert.equal(await apiStatus(secret), 200)
  assert.equal(await apiStatus(secret, '/v1/people'), 403, 'people:read was not given')
  const [row] = await keysNamed('deploy script')
  assert.equal(row?.kind, 'api_key')
  assert.equal(row?.person_id, ws.ids.alice)
  assert.deepEqual([...(row?.scopes ?? [])].sort(), ['task:read', 'workspace:read'])
  assert.equal(row?.expires_at, null)
  const audit = await t.db.db
    .selectFrom('audit_log')
    .selectAll()
    .where('resource_id', '=', row?.id as string)
    .execute()
  assert.deepEqual(
    audit.map((entry) => [entry.action, entry.via, entry.actor_id]),
    [['api_key.created', 'web', ws.ids.alice]],
  )
  const list = await alice.get(PAGE)
  assert.match(list.body, />deploy script </)
  assert.ok(!list.body.includes(secret), 'the list never shows the secret')
})

test('the same form sent again makes no second key and shows no secret', async () => {
  const alice = await as('alice')
  const form_key = hiddenValue((await alice.get(PAGE)).body, 'form_key')
  const fields: Fields = [
    ['form_key', form_key],
    ['name', 'sent twice'],
    ['scopes', 'task:read'],
    ['lifetime', '7'],
  ]
  const first = await alice.submit(PAGE, fields)
  assert.equal(first.status, 201)
  assert.ok(secretOn(first.body))
  const again = await alice.submit(PAGE, fields)
  assert.equal(again.status, 201)
  assert.equal(secretOn(again.body), undefined)
  assert.match(mainText(again.body), /This form was already submitted/)
  assert.equal((await keysNamed('sent twice')).length, 1)
})

test('no name, scope or known end: 422, the form again as sent, nothing written', async () => {
  const alice = await as('alice')
  const cases: [string, Fields, string][] = [
    [
      'no name',
      [
        ['name', ''],
        ['scopes', 'task:read'],
        ['lifetime', ''],
      ],
      NAMELESS,
    ],
    [
      'a blank name',
      [
        ['name', '   '],
        ['scopes', 'task:read'],
        ['lifetime', ''],
      ],
      NAMELESS,
    ],
    [
      'a long name',
      [
        ['name', 'n'.repeat(201)],
        ['scopes', 'task:read'],
        ['lifetime', ''],
      ],
      NAMELESS,
    ],
    [
      'no scope',
      [
        ['name', 'kept name'],
        ['lifetime', ''],
      ],
      'Choose at least one scope.',
    ],
    [
      'an end not offered',
      [
        ['name', 'kept name'],
        ['scopes', 'task:read'],
        ['lifetime', 'forever'],
      ],
      'Choose when the key stops working.',
    ],
    [
      'too many projects',
      [
        ['name', 'kept name'],
        ['scopes', 'task:read'],
        ['lifetime', ''],
        ...Array.from({ length: 101 }, (_, i): [string, string] => ['project_ids', `prj_${i}`]),
      ],
      'Choose at most 100 projects.',
    ],
  ]
  const before = await state()
  for (const [what, fields, message] of cases) {
    const reply = await create(alice, fields)
    assert.equal(reply.status, 422, what)
    assert.equal(/<p class="error" role="alert">([^<]*)<\/p>/.exec(reply.body)?.[1], message, what)
    assert.match(reply.body, /<h1>API keys<\/h1>/, `${what}: the list and form again`)
  }
  // The refused form comes back as it was sent: the name, and only the scope that was ticked.
  const refused = await create(alice, [
    ['name', 'kept name'],
    ['scopes', 'task:read'],
    ['lifetime', 'forever'],
  ])
  assert.match(refused.body, /id="key-name" name="name" required maxlength="200" value="kept name"/)
  assert.match(refused.body, /value="task:read"\s+checked>/)
  assert.doesNotMatch(refused.body, /value="project:read"\s+checked>/)
  assert.deepEqual(await state(), before)
})

test('a scope beyond the role or an unknown scope is refused; no key is made', async () => {
  const bob = await as('bob')
  const before = await written()
  const beyond = await create(bob, [
    ['name', 'too much'],
    ['scopes', 'task:read'],
    ['scopes', 'audit:read'],
    ['lifetime', ''],
  ])
  assert.equal(beyond.status, 403)
  assert.match(mainText(beyond.body), /^Not done .*audit:read.* Nothing was changed/)
  const unknown = await create(bob, [
    ['name', 'made up'],
    ['scopes', 'nonsense:read'],
    ['lifetime', ''],
  ])
  assert.equal(unknown.status, 422)
  assert.match(mainText(unknown.body), /^Not done Some scopes are not known\./)
  assert.deepEqual(await written(), before)
})

test('a cross-site or tokenless key form is a 403 that writes nothing', async () => {
  const alice = await as('alice')
  const bob = await as('bob')
  const target = keyId('alice-key')
  const before = await state()
  for (const [path, fields] of [
    [
      PAGE,
      [
        ['name', 'forged'],
        ['scopes', 'task:read'],
        ['lifetime', ''],
      ],
    ],
    [`${PAGE}/${target}/rotate`, [['overlap_seconds', '0']]],
  ] as [string, Fields][]) {
    const attempts: [string, Fields, Record<string, string>][] = [
      ['another origin', [['csrf', alice.csrf], ...fields], { origin: 'https://evil.example' }],
      ['a cross-site fetch', [['csrf', alice.csrf], ...fields], { 'sec-fetch-site': 'cross-site' }],
      ['no token', fields, { origin: alice.origin }],
      ["another session's token", [['csrf', bob.csrf], ...fields], { origin: alice.origin }],
    ]
    for (const [what, form, headers] of attempts) {
      const reply = await alice.post(path, form, headers)
      assert.equal(reply.status, 403, `${path}, ${what}`)
      assert.match(reply.body, /<h1>Form expired<\/h1>/, `${path}, ${what}`)
    }
  }
  assert.deepEqual(await state(), before)
  assert.equal(await apiStatus(ws.api_keys['alice-key']?.token as string), 200)
})

test("the rotate page opens only for one's own working key; else the 404 page", async () => {
  const alice = await as('alice')
  const own = await alice.get(`${PAGE}/${keyId('alice-key')}/rotate`)
  assert.equal(own.status, 200)
  assert.match(own.body, /<h1>Rotate “alice-key”<\/h1>/)
  assert.match(
    own.body,
    new RegExp(`<form method="post" action="${PAGE}/${keyId('alice-key')}/rotate"`),
  )
  assert.match(own.body, /<option value="86400" selected>/)
  const unknown = await alice.get(`${PAGE}/${UNKNOWN}/rotate`)
  assert.equal(unknown.status, 404)
  assert.match(unknown.body, /<h1>Page not found<\/h1>/)
  const { id: revoked } = await made(alice, 'to revoke')
  assert.equal((await alice.submit(`${PAGE}/${revoked}/revoke`)).status, 303)
  const { id: rotating } = await made(alice, 'rotating')
  assert.equal((await rotate(alice, rotating, '3600')).status, 201)
  for (const [what, id] of [
    ["bob's key", keyId('bob-key')],
    ["the workspace token's id", ws.workspace_tokens['bot-token']?.id as string],
    ['a revoked key', revoked],
    ['a key already rotated', rotating],
  ]) {
    const reply = await alice.get(`${PAGE}/${id}/rotate`)
    assert.equal(reply.status, 404, what)
    assert.equal(reply.body, unknown.body, `${what}: the same page as an unknown id`)
  }
})

test('rotating with no overlap: a new secret works and the old key stops at once', async () => {
  const alice = await as('alice')
  const old = await made(alice, 'rotate now')
  const reply = await rotate(alice, old.id, '0')
  assert.equal(reply.status, 201, mainText(reply.body))
  assert.match(mainText(reply.body), /^Key rotated The new key “rotate now” replaces the old one/)
  const secret = secretOn(reply.body) as string
  assert.ok(secret && secret !== old.secret)
  assert.equal(await apiStatus(secret), 200)
  assert.equal(await apiStatus(old.secret), 401)
  assert.equal((await keysNamed('rotate now')).length, 2)
})

test('rotating with an overlap: the old key works until the time the page names', async () => {
  const alice = await as('alice')
  const old = await made(alice, 'rotate later')
  const reply = await rotate(alice, old.id, '3600')
  assert.equal(reply.status, 201, mainText(reply.body))
  const until = new Date(t.clock.now().getTime() + 3_600_000)
  assert.ok(reply.body.includes(until.toISOString()), 'the page names when the old key stops')
  assert.equal(await apiStatus(old.secret), 200)
  assert.equal(await apiStatus(secretOn(reply.body) as string), 200)
  const previous = (await keysNamed('rotate later')).find((row) => row.id === old.id)
  assert.equal(previous?.expires_at?.getTime(), until.getTime())
  assert.match((await alice.get(PAGE)).body, /rotating<\/span> until/)
})

test('a rotate form without an overlap keeps the old key a day, as the API does', async () => {
  const alice = await as('alice')
  for (const [name, fields] of [
    ['overlap left out', []],
    ['overlap left blank', [['overlap_seconds', ' ']]],
  ] as [string, [string, string][]][]) {
    const old = await made(alice, name)
    const form_key = hiddenValue((await alice.get(`${PAGE}/${old.id}/rotate`)).body, 'form_key')
    const reply = await alice.submit(`${PAGE}/${old.id}/rotate`, [
      ['form_key', form_key],
      ...fields,
    ])
    assert.equal(reply.status, 201, mainText(reply.body))
    assert.equal(await apiStatus(old.secret), 200, `${name}: the old key still works`)
    const previous = (await keysNamed(name)).find((row) => row.id === old.id)
    assert.equal(previous?.expires_at?.getTime(), t.clock.now().getTime() + 86_400_000, name)
  }
})

test('an overlap outside 0 to 7 days is a 422 that rotates nothing', async () => {
  const alice = await as('alice')
  const old = await made(alice, 'overlaps')
  const before = await state()
  for (const overlap of ['-1', '604801', '1.5', 'a day', '0x10', '1e3']) {
    const reply = await rotate(alice, old.id, overlap)
    assert.equal(reply.status, 422, overlap)
    assert.match(mainText(reply.body), /^Not done Choose how long the old key keeps working\./)
  }
  assert.deepEqual(await state(), before)
  assert.equal(await apiStatus(old.secret), 200)
})

test("another person's key cannot be rotated: the 404 page, and no key is made", async () => {
  const alice = await as('alice')
  const before = await written()
  // The form of alice's own key, sent to bob's key's address.
  const form_key = hiddenValue(
    (await alice.get(`${PAGE}/${keyId('alice-key')}/rotate`)).body,
    'form_key',
  )
  const reply = await alice.submit(`${PAGE}/${keyId('bob-key')}/rotate`, [
    ['form_key', form_key],
    ['overlap_seconds', '0'],
  ])
  assert.equal(reply.status, 404)
  assert.match(reply.body, /<h1>Page not found<\/h1>/)
  assert.deepEqual(await written(), before)
  assert.equal(await apiStatus(ws.api_keys['bob-key']?.token as string), 200)
})

test("the key list's revocations name only the person's own keys that still work", async () => {
  const alice = await as('alice')
  const { id, secret } = await made(alice, 'revoked here')
  const confirm = await alice.get(`${PAGE}/${id}/revoke`)
  assert.equal(confirm.status, 200)
  assert.match(mainText(confirm.body), /Revoke the key “revoked here” \(…[^)]{4}\)\?/)
  assert.equal((await alice.get(`${PAGE}/${keyId('bob-key')}/revoke`)).status, 404)
  assert.equal((await alice.submit(`${PAGE}/${id}/revoke`)).status, 303)
  assert.equal(await apiStatus(secret), 401)
  assert.equal((await alice.get(`${PAGE}/${id}/revoke`)).status, 404, 'revoked: not offered again')
})

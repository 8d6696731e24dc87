import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { ImportResult } from '../../src/bundle/import-bundle.ts'
import { importOk, tokenOf, writableBundle } from '../harness/bundles.ts'
import { allPages, client, startTestApp, type TestApp } from '../harness/test-app.ts'
import { mainText, signIn, textOf, type Visitor } from '../harness/web-visitor.ts'

// The audit log page (web/audit-page.routes.ts): for owners and admins, with the API's query,
// filters, cursor and redaction (GET /v1/audit, audit.routes.test.ts); a 403 page for others.
// The page in a browser: browser/webhooks-audit-pages.

const TASKS = 28

let t: TestApp
let ws: ImportResult
let hiddenTask: string
before(async () => {
  t = await startTestApp()
  ws = await importOk(t.db.db, writableBundle())
  const alice = client(t.app, tokenOf(ws, 'alice-key'))
  for (let i = 0; i < TASKS; i++) {
    const made = await alice.post('/v1/tasks', { title: `Open task ${i}`, project_id: ws.ids.open })
    assert.equal(made.status, 201, made.body)
  }
  // In the private project, which neither the owner nor the admin is a member of.
  const hidden = await alice.post('/v1/tasks', {
    title: 'Hidden launch date',
    project_id: ws.ids.secret,
  })
  assert.equal(hidden.status, 201, hidden.body)
  hiddenTask = hidden.json.id
  const key = await client(t.app, tokenOf(ws, 'olive-key')).post('/v1/api-keys', {
    name: 'audited key',
    scopes: ['task:read'],
  })
  assert.equal(key.status, 201, key.body)
})
after(() => t.close())

const as = (person: string) =>
  signIn(t, { workspaceId: ws.workspace_id, personId: ws.ids[person] as string })
// An attribute as a browser reads it (ghtml escapes `=` and `&` in attributes).
const attributeValue = (value: string) =>
  value.replace(/&#(\d+);/g, (_m, code) => String.fromCharCode(Number(code))).replace(/&amp;/g, '&')
const entriesOn = (body: string) =>
  [
    ...body.matchAll(/<section class="audit-entry" aria-labelledby="([^"]+)">\s*<h3[^>]*>([^<]+)/g),
  ].map((m) => ({ id: m[1] as string, action: m[2] as string }))
const nextOf = (body: string) => {
  const href = /<a href="([^"]+)" rel="next">Older entries<\/a>/.exec(body)?.[1]
  return href ? attributeValue(href) : null
}
const totalEntries = async () =>
  Number(
    (
      await t.db.db
        .selectFrom('audit_log')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('workspace_id', '=', ws.workspace_id)
        .executeTakeFirstOrThrow()
    ).n,
  )

/** The pages from `path` on, following "Older entries": their bodies, joined. */
async function allBodies(visitor: Visitor, path: string): Promise<string> {
  const bodies: string[] = []
  let next: string | null = path
  for (let page = 0; next && page < 20; page++) {
    const reply = await visitor.get(next)
    assert.equal(reply.status, 200, `${next}: ${mainText(reply.body).slice(0, 300)}`)
    next = nextOf(reply.body)
    if (next) assert.equal(entriesOn(reply.body).length, 25, 'a page before the last is full')
    bodies.push(reply.body)
  }
  return bodies.join('\n')
}

/** Every entry of the page at `path` and of the pages after it. */
const allEntries = async (visitor: Visitor, path: string) =>
  entriesOn(await allBodies(visitor, path))

test('signed out, the page redirects to sign-in and back to the same filters', async () => {
  const reply = await client(t.app).get('/audit?action=task.created')
  assert.equal(reply.status, 303)
  assert.equal(
    reply.headers.location,
    `/sign-in?return_to=${encodeURIComponent('/audit?action=task.created')}`,
  )
})

test('for a member or a guest the audit log is a 403 page that shows no entry', async () => {
  for (const person of ['alice', 'gus']) {
    const reply = await (await as(person)).get('/audit')
    assert.equal(reply.status, 403, person)
    assert.equal(
      mainText(reply.body),
      'Not available The audit log is for workspace owners and admins. Go to the home page',
    )
    assert.equal(entriesOn(reply.body).length, 0)
    assert.ok(!reply.body.includes(hiddenTask))
  }
})

test('an owner pages through every entry of the workspace, 25 at a time, none twice', async () => {
  const olive = await as('olive')
  const first = await olive.get('/audit')
  assert.equal(first.status, 200)
  assert.equal(first.headers['cache-control'], 'no-store')
  assert.match(first.body, /<h1>Audit log<\/h1>/)
  const entries = await allEntries(olive, '/audit')
  assert.equal(entries.length, await totalEntries())
  assert.equal(new Set(entries.map((entry) => entry.id)).size, entries.length)
  assert.ok(entries.length > 25, 'more than one page')
})

test('filters narrow the entries, and the form shows them as chosen', async () => {
  const adam = await as('adam')
  const keys = await adam.get('/audit?action=api_key.created')
  assert.equal(keys.status, 200)
  assert.deepEqual(
    entriesOn(keys.body).map((entry) => entry.action),
    ['api_key.created'],
  )
  assert.match(keys.body, /<option value="api_key.created" selected>/)
  const byActor = await allEntries(adam, `/audit?actor_id=${ws.ids.alice}&action=task.created`)
  assert.equal(byActor.length, TASKS + 1)
  // The actor is chosen by name: the select's option carries the id the query takes.
  const actorPage = await adam.get(`/audit?actor_id=${ws.ids.alice}`)
  assert.match(actorPage.body, new RegExp(`<option value="${ws.ids.alice}" selected>Alice`))
  assert.doesNotMatch(actorPage.body, /name="actor_id" type="text"/)
  // An id that is no one's stays chosen, as itself, and matches nothing.
  const nobody = await adam.get('/audit?actor_id=per_nobody')
  assert.match(nobody.body, /<option value="per_nobody" selected>per_nobody<\/option>/)
  assert.equal(entriesOn(nobody.body).length, 0)
  // A time typed in the form's datetime-local field is read as UTC.
  const future = new Date(t.clock.now().getTime() + 60_000).toISOString().slice(0, 16)
  const none = await adam.get(`/audit?since=${future}`)
  assert.equal(none.status, 200, mainText(none.body))
  assert.equal(entriesOn(none.body).length, 0)
  assert.match(mainText(none.body), /Entries No entries\./)
  assert.match(
    none.body,
    new RegExp(`id="since" name="since" type="datetime-local" value="${future}"`),
  )
  const past = await allEntries(adam, '/audit?since=2000-01-01T00:00')
  assert.equal(past.length, await totalEntries())
})

test('a filter the API refuses is a 400 page with the message by its field', async () => {
  const olive = await as('olive')
  const until = await olive.get('/audit?until=2026-13-45T99:00')
  assert.equal(until.status, 400)
  assert.match(
    until.body,
    /id="until" name="until" type="datetime-local" [^>]*aria-describedby="until-error"/,
  )
  assert.match(until.body, /<p class="error field-error" id="until-error">/)
  assert.match(until.body, /<p class="error" role="alert">The form has fields to correct\.<\/p>/)
  assert.equal(entriesOn(until.body).length, 0)
  const action = await olive.get('/audit?action=task.exploded')
  assert.equal(action.status, 400)
  assert.equal(entriesOn(action.body).length, 0)
})

test('a cursor works only for the session and the filters it was made for', async () => {
  const olive = await as('olive')
  const next = nextOf((await olive.get('/audit')).body) as string
  assert.ok(next, 'the first page has a next one')
  const cursor = new URL(next, 'http://x').searchParams.get('cursor') as string
  assert.equal((await olive.get(next)).status, 200)
  const refusals = [
    ['other filters', olive, `/audit?action=task.created&cursor=${encodeURIComponent(cursor)}`],
    ['another session of the same owner', await as('olive'), next],
    ["the admin's session", await as('adam'), next],
    ['a made-up cursor', olive, '/audit?cursor=bm90IGEgY3Vyc29y'],
  ] as const
  for (const [what, visitor, path] of refusals) {
    const reply = await visitor.get(path)
    assert.equal(reply.status, 400, what)
    assert.match(
      mainText(reply.body),
      /The cursor is malformed, or belongs to another token or other filters\./,
      what,
    )
    assert.equal(entriesOn(reply.body).length, 0, what)
  }
})

test('an entry the reader cannot open is withheld, as the API withholds it', async () => {
  const body = await allBodies(await as('olive'), '/audit?action=task.created')
  const page = entriesOn(body)
  const api = await allPages(
    client(t.app, tokenOf(ws, 'olive-key')),
    '/v1/audit?action=task.created',
    100,
  )
  assert.deepEqual(page.map((entry) => entry.id).sort(), api.map((entry) => entry.id).sort())
  const redacted = api.filter((entry) => entry.redacted)
  assert.equal(redacted.length, 1, 'the task in the private project')
  const section = new RegExp(
    `<section class="audit-entry" aria-labelledby="${redacted[0].id}">[\\s\\S]*?</section>`,
  )
  assert.match(
    textOf(section.exec(body)?.[0] ?? ''),
    /Resource task \(withheld: you cannot open it now\) Changed fields: creator_id, .*title$/,
  )
  assert.ok(!body.includes(hiddenTask), 'the id is withheld')
  assert.ok(!body.includes('Hidden launch date'), 'and every value')
  // Its creator's admin reads every other entry's diff.
  assert.match(body, /Open task 0/)
})

test('entries name their actor, credential and resource; ids stay in the links', async () => {
  const adam = await as('adam')
  const body = (await adam.get('/audit?action=task.created')).body
  // The newest entry Adam may read whole: the hidden task's entry, withheld, may come first.
  const first = attributeValue(
    [...body.matchAll(/<section class="audit-entry"[\s\S]*?<\/section>/g)]
      .map((match) => match[0])
      .find((section) => !section.includes('withheld')) ?? '',
  )
  const text = textOf(first)
  assert.match(text, /Who Alice/)
  assert.match(text, /Through api, API key “[^”]+”/)
  assert.match(text, /Resource task Open task \d+ · its entries/)
  // An id in the diff is named too, when the reader may open it, with the id beside it.
  assert.match(text, /creator_id — Alice Member usr_/)
  assert.match(first, new RegExp(`href="/audit\\?actor_id=${ws.ids.alice}"`))
  // A resource filter is shown by the resource's name, and can be dropped.
  const task = /href="\/audit\?resource_id=([^"]+)"/.exec(first)?.[1] as string
  const about = await adam.get(`/audit?resource_id=${task}`)
  assert.match(textOf(about.body), /About Open task \d+ \(\s?any resource\s?\)/)
  // The hidden task's id in the address gets no name: the reader may not open it.
  const hidden = await adam.get(`/audit?resource_id=${hiddenTask}`)
  assert.ok(!hidden.body.includes('Hidden launch date'))
})

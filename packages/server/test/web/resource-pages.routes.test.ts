import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { ImportResult } from '../../src/bundle/import-bundle.ts'
import { importOk, smallBundle } from '../harness/bundles.ts'
import { client, startTestApp, type TestApp } from '../harness/test-app.ts'
import { mainText, signIn } from '../harness/web-visitor.ts'

// The read-only pages at the resources' own URLs (web/resource-pages.routes.ts): `/`,
// `/{workspace_id}` and `/{workspace_id}/{type}/{id}`. "Why you can see this" on them is
// access-reasons.test.ts's subject; the same pages in a browser, browser/sign-in.

let t: TestApp
let ws: ImportResult
let zeta: ImportResult
before(async () => {
  t = await startTestApp()
  const bundle = smallBundle()
  // A task of the private project assigned to alice: her page must not show it to others.
  for (const task of bundle.tasks ?? []) if (task.key === 't-secret') task.assignee = 'alice'
  ws = await importOk(t.db.db, bundle)
  zeta = await importOk(t.db.db, {
    format: 'workgraph.bundle/v1',
    workspace: { key: 'z', name: 'Zeta corp' },
    people: [{ key: 'zed', name: 'Zed Zeta', email: 'zed@zeta.test', role: 'owner' }],
    projects: [
      {
        key: 'zp',
        name: 'Zeta project',
        status: 'active',
        visibility: 'workspace',
        owner: 'zed',
      },
    ],
  })
})
after(() => t.close())

const as = (person: string) =>
  signIn(t, { workspaceId: ws.workspace_id, personId: ws.ids[person] as string })
const path = (type: string, key: string, workspace = ws) =>
  `/${workspace.workspace_id}/${type}/${workspace.ids[key]}`

test('signed out, a page leads to sign-in and back (home without a return_to)', async () => {
  const anonymous = client(t.app)
  const home = await anonymous.get('/')
  assert.equal(home.status, 303)
  assert.equal(home.headers.location, '/sign-in')
  for (const url of [path('task', 't-open'), `/${ws.workspace_id}`]) {
    const reply = await anonymous.get(url)
    assert.equal(reply.status, 303, url)
    assert.equal(reply.headers.location, `/sign-in?return_to=${encodeURIComponent(url)}`)
    assert.equal(reply.headers['cache-control'], 'no-store')
  }
})

test('home: the workspace, who is signed in, and the projects the person may open', async () => {
  const alice = await (await as('alice')).get('/')
  assert.equal(alice.status, 200)
  assert.equal(alice.headers['content-type'], 'text/html; charset=utf-8')
  assert.match(
    mainText(alice.body),
    /^Test workspace Signed in as Alice Member \(member\)\. 5 people in the workspace\. Projects /,
  )
  assert.match(alice.body, new RegExp(`<a href="${path('project', 'open')}">Open project</a>`))
  assert.match(alice.body, new RegExp(`<a href="${path('project', 'secret')}">Secret project</a>`))
  assert.match(alice.body, new RegExp(`<a href="${path('person', 'alice')}">Your page</a>`))
  for (const person of ['bob', 'gus']) {
    const home = await (await as(person)).get('/')
    assert.equal(home.status, 200, person)
    assert.match(home.body, />Open project</, person)
    assert.ok(!home.body.includes('Secret project'), `${person} is not in the private project`)
    assert.ok(!home.body.includes(ws.ids.secret as string), person)
  }
})

test("the workspace's own address leads home; another workspace's is the 404 page", async () => {
  const alice = await as('alice')
  const own = await alice.get(`/${ws.workspace_id}`)
  assert.equal(own.status, 303)
  assert.equal(own.headers.location, '/')
  assert.equal(own.headers['cache-control'], 'no-store')
  for (const other of [zeta.workspace_id, `wsp_${'0'.repeat(26)}`]) {
    const reply = await alice.get(`/${other}`)
    assert.equal(reply.status, 404, other)
    assert.match(reply.body, /<h1>Page not found<\/h1>/)
  }
})

test('each kind the person may open has its page at its own address', async () => {
  const alice = await as('alice')
  for (const [type, key, heading] of [
    ['project', 'secret', 'Secret project'],
    ['task', 't-secret', 'Secret task'],
    ['canvas', 'plan', 'Launch plan'],
    ['okr', 'o1', 'Grow'],
    ['person', 'bob', 'Bob Member'],
    ['team', 'eng', 'Engineering'],
  ]) {
    const reply = await alice.get(path(type as string, key as string))
    assert.equal(reply.status, 200, `${type} ${key}`)
    assert.match(reply.body, new RegExp(`<h1>${heading}</h1>`), `${type} ${key}`)
  }
  // A page links the neighbours it names: the task its project and canvas.
  const task = (await alice.get(path('task', 't-secret'))).body
  assert.match(task, new RegExp(`<a href="${path('project', 'secret')}">Secret project</a>`))
  assert.match(task, new RegExp(`<a href="${path('canvas', 'plan')}">Launch plan</a>`))
})

test("a comment or a key result leads to its place on its parent's page", async () => {
  const alice = await as('alice')
  for (const [type, key, parent] of [
    ['comment', 'm1', path('task', 't-secret')],
    ['key_result', 'kr1', path('okr', 'o1')],
  ] as const) {
    const reply = await alice.get(path(type, key))
    assert.equal(reply.status, 303, `${type}: ${mainText(reply.body)}`)
    assert.equal(reply.headers.location, `${parent}#${ws.ids[key]}`)
    assert.equal(reply.headers['cache-control'], 'no-store')
  }
})

test('hidden, unknown, wrong type or wrong workspace: one and the same 404 page', async () => {
  const bob = await as('bob')
  const unknownId = `prj_${'0'.repeat(26)}`
  const unknown = await bob.get(`/${ws.workspace_id}/project/${unknownId}`)
  assert.equal(unknown.status, 404)
  assert.match(unknown.body, /<h1>Page not found<\/h1>/)
  for (const [what, url] of [
    ['a private project', path('project', 'secret')],
    ['its task', path('task', 't-secret')],
    ['its canvas', path('canvas', 'plan')],
    ['a comment on its task', path('comment', 'm1')],
    ['a project under the type task', `/${ws.workspace_id}/task/${ws.ids.open}`],
    ['an unknown type', `/${ws.workspace_id}/thing/${ws.ids.open}`],
    ['not an id', `/${ws.workspace_id}/project/not-an-id`],
    ['a project of this workspace under another', `/${zeta.workspace_id}/project/${ws.ids.open}`],
    ["another workspace's project", path('project', 'zp', zeta)],
    ["another workspace's project under this one", `/${ws.workspace_id}/project/${zeta.ids.zp}`],
  ]) {
    const reply = await bob.get(url as string)
    assert.equal(reply.status, 404, what)
    assert.equal(reply.body, unknown.body, `${what}: the same page as an unknown id`)
    assert.equal(reply.headers.location, undefined, what)
  }
  assert.ok(!unknown.body.includes('Secret') && !unknown.body.includes('Zeta'))
})

test("a person's page lists only the assigned tasks the viewer may open", async () => {
  const own = await (await as('alice')).get(path('person', 'alice'))
  assert.match(own.body, />Secret task</)
  const other = await (await as('bob')).get(path('person', 'alice'))
  assert.equal(other.status, 200)
  assert.match(mainText(other.body), /Assigned tasks No task you can see is assigned\./)
  assert.ok(
    !other.body.includes('Secret task') && !other.body.includes(ws.ids['t-secret'] as string),
  )
})

test('an address under /v1 is never a page: the API answers its problem+json 404', async () => {
  const alice = await as('alice')
  const cookies: Record<string, string>[] = [{}, { cookie: alice.cookie }]
  for (const headers of cookies) {
    const reply = await client(t.app).get('/v1/nope/x', { accept: 'text/html', ...headers })
    assert.equal(reply.status, 404)
    assert.match(String(reply.headers['content-type']), /^application\/problem\+json/)
    assert.equal(reply.json.code, 'not_found')
  }
})

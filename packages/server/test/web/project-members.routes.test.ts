import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { ImportResult } from '../../src/bundle/import-bundle.ts'
import { importOk } from '../harness/bundles.ts'
import { peopleBundle } from '../harness/people-bundle.ts'
import { startTestApp, type TestApp } from '../harness/test-app.ts'
import { hiddenValue, mainText, signIn } from '../harness/web-visitor.ts'

// A project's members page (web/project-members.routes.ts) and the home page's new-project form
// (web/new-project.routes.ts): the API's project commands, so the rules and refusals are the API's.
// `open` (workspace, owner alice, direct member gus), `secret` (private, owner alice, the team
// eng of alice, the integration bot), `lobby` (workspace, owner olive).

let t: TestApp
let ws: ImportResult
const id = (key: string) => ws.ids[key] as string
const visitor = (key: string) => signIn(t, { workspaceId: ws.workspace_id, personId: id(key) })
const members = (key: string) => `/projects/${id(key)}/members`

/** A project's row and direct members, and the audit entries: what a refused form leaves. */
async function projectState(key: string) {
  const project = await t.db.db
    .selectFrom('projects')
    .select(['visibility', 'owner_id', 'name'])
    .where('id', '=', id(key))
    .executeTakeFirstOrThrow()
  const direct = await t.db.db
    .selectFrom('project_members')
    .select('principal_id')
    .where('project_id', '=', id(key))
    .orderBy('principal_id')
    .execute()
  const audit = await t.db.db
    .selectFrom('audit_log')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow()
  return { project, direct: direct.map((row) => row.principal_id), audit: Number(audit.n) }
}

before(async () => {
  t = await startTestApp()
  ws = await importOk(t.db.db, peopleBundle())
})
after(() => t.close())

test('everyone who opens a project sees its direct members; its owner and admins get the forms', async () => {
  const project = await (await visitor('alice')).get(`/${ws.workspace_id}/project/${id('open')}`)
  assert.match(project.body, new RegExp(`href="${members('open')}"`))
  for (const key of ['alice', 'adam', 'olive']) {
    const page = await (await visitor(key)).get(members('open'))
    assert.equal(page.status, 200, key)
    assert.match(mainText(page.body), /Members of Open project/)
    assert.match(mainText(page.body), /Gus Guest person/, key)
    assert.match(page.body, new RegExp(`action="${members('open')}"`), key)
    assert.match(page.body, new RegExp(`action="/projects/${id('open')}/access"`), key)
    assert.match(page.body, new RegExp(`href="${members('open')}/${id('gus')}/remove"`), key)
  }
  for (const key of ['bob', 'gus']) {
    const page = await (await visitor(key)).get(members('open'))
    assert.equal(page.status, 200, key)
    assert.match(mainText(page.body), /Gus Guest/, key)
    assert.ok(!page.body.includes(`action="${members('open')}"`), `${key}: no add form`)
    assert.ok(!page.body.includes('/access"'), `${key}: no access form`)
    assert.ok(!page.body.includes('/remove"'), `${key}: no remove link`)
    assert.match(mainText(page.body), /Only the project's owner and the workspace's owners/)
  }
  // The private project: its team and integration, for its owner.
  const secret = await (await visitor('alice')).get(members('secret'))
  assert.match(mainText(secret.body), /Engineering team/)
  assert.match(mainText(secret.body), /Bot integration/)
})

test('a project the viewer cannot open is the one 404 page, to an admin too, and takes no form', async () => {
  for (const key of ['adam', 'bob', 'gus']) {
    const viewer = await visitor(key)
    const unknown = await viewer.get(`/projects/prj_${'0'.repeat(26)}/members`)
    assert.equal(unknown.status, 404)
    const hidden = await viewer.get(members('secret'))
    assert.equal(hidden.status, 404, key)
    assert.equal(hidden.body, unknown.body, `${key}: the same page as an unknown id`)
    const confirm = await viewer.get(`${members('secret')}/${id('bot')}/remove`)
    assert.equal(confirm.status, 404, key)
  }
  const adam = await visitor('adam')
  const before = await projectState('secret')
  const tries: [string, [string, string][]][] = [
    [members('secret'), [['member', id('adam')]]],
    [`/projects/${id('secret')}/access`, [['visibility', 'workspace']]],
    [`${members('secret')}/${id('bot')}/remove`, []],
  ]
  for (const [path, fields] of tries) {
    const reply = await adam.submit(path, fields)
    assert.equal(reply.status, 404, path)
    assert.match(reply.body, /<h1>Page not found<\/h1>/, path)
  }
  assert.deepEqual(await projectState('secret'), before)
})

test('a member who does not own the project gets a 403 page and nothing changes; forms need the token', async () => {
  const bob = await visitor('bob')
  const before = await projectState('open')
  const tries: [string, [string, string][]][] = [
    [members('open'), [['member', id('bob')]]],
    [`/projects/${id('open')}/access`, [['visibility', 'private']]],
    [`${members('open')}/${id('gus')}/remove`, []],
  ]
  for (const [path, fields] of tries) {
    const reply = await bob.submit(path, fields)
    assert.equal(reply.status, 403, path)
    assert.match(mainText(reply.body), /Only the project&#39;s owner/, path)
  }
  assert.equal((await bob.get(`${members('open')}/${id('gus')}/remove`)).status, 403)
  const alice = await visitor('alice')
  const forged = await alice.post(members('open'), [
    ['csrf', 'forged'],
    ['member', id('bob')],
  ])
  assert.equal(forged.status, 403)
  assert.match(mainText(forged.body), /Form expired/)
  const crossSite = await alice.post(
    `/projects/${id('open')}/access`,
    [
      ['csrf', alice.csrf],
      ['visibility', 'private'],
    ],
    { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
  )
  assert.equal(crossSite.status, 403)
  assert.deepEqual(await projectState('open'), before)
})

test('making a project private whose owner is not a member is the 422 beside the field; nothing changes', async () => {
  const adam = await visitor('adam')
  const before = await projectState('open')
  const reply = await adam.submit(`/projects/${id('open')}/access`, [
    ['visibility', 'private'],
    ['owner_id', id('alice')],
  ])
  assert.equal(reply.status, 422, mainText(reply.body))
  assert.match(
    mainText(reply.body),
    /would leave the project&#39;s owner unable to open it; add them as a member first/,
  )
  assert.match(reply.body, /<fieldset aria-invalid="true" aria-describedby="visibility-error">/)
  assert.match(reply.body, /id="visibility-error"/)
  // The form shows what was tried, so it can be corrected.
  assert.match(reply.body, /value="private" checked/)
  assert.deepEqual(await projectState('open'), before)
})

test('the owner adds and removes members (asked first), and hands the project on', async () => {
  const alice = await visitor('alice')
  const added = await alice.submit(members('open'), [['member', id('bob')]])
  assert.equal(added.status, 303, mainText(added.body))
  assert.equal(added.headers.location, `${members('open')}?done=added`)
  const team = await alice.submit(members('open'), [['member', id('eng')]])
  assert.equal(team.status, 303)
  const bot = await alice.submit(members('open'), [['member', id('bot')]])
  assert.equal(bot.status, 303)
  assert.deepEqual(
    (await projectState('open')).direct,
    [id('bob'), id('bot'), id('eng'), id('gus')].sort(),
  )
  const page = await alice.get(`${members('open')}?done=added`)
  assert.match(mainText(page.body), /The member was added/)
  assert.match(
    mainText(page.body),
    /Bob Member person .*Gus Guest person .*Engineering team .*Bot integration/,
  )
  const audit = await t.db.db
    .selectFrom('audit_log')
    .select(['action', 'via', 'actor_id'])
    .where('resource_id', '=', id('open'))
    .execute()
  assert.deepEqual(
    audit.map((entry) => [entry.action, entry.via, entry.actor_id]),
    [
      ['project.member_added', 'web', id('alice')],
      ['project.member_added', 'web', id('alice')],
      ['project.member_added', 'web', id('alice')],
    ],
  )

  const ask = await alice.get(`${members('open')}/${id('gus')}/remove`)
  assert.equal(ask.status, 200)
  assert.match(mainText(ask.body), /Remove Gus Guest from Open project\?/)
  assert.ok((await projectState('open')).direct.includes(id('gus')), 'asking removes no one')
  const removed = await alice.submit(`${members('open')}/${id('gus')}/remove`)
  assert.equal(removed.status, 303)
  assert.ok(!(await projectState('open')).direct.includes(id('gus')))
  assert.equal((await alice.get(`${members('open')}/${id('gus')}/remove`)).status, 404)
  // Gus no longer opens it: the same 404 as an unknown project.
  assert.equal((await (await visitor('gus')).get(members('open'))).status, 404)

  const handed = await alice.submit(`/projects/${id('open')}/access`, [
    ['visibility', 'workspace'],
    ['owner_id', id('bob')],
  ])
  assert.equal(handed.status, 303)
  assert.equal((await projectState('open')).project.owner_id, id('bob'))
  // Alice is no longer its owner: the forms are gone for her, and Bob has them.
  assert.ok(!(await alice.get(members('open'))).body.includes('/access"'))
  assert.ok((await (await visitor('bob')).get(members('open'))).body.includes('/access"'))
})

test('removing yourself from your own private project is the 422 on the page', async () => {
  const alice = await visitor('alice')
  // Alice opens the secret project through the team eng only; removing it would lock her out.
  const before = await projectState('secret')
  const reply = await alice.submit(`${members('secret')}/${id('eng')}/remove`)
  assert.equal(reply.status, 422)
  assert.match(
    mainText(reply.body),
    /Removing Engineering would leave you, its owner, unable to open the project/,
  )
  assert.match(mainText(reply.body), /Members of Secret project/)
  assert.deepEqual(await projectState('secret'), before)
})

test('non-guests make a project from the home page and land on it; guests get no form', async () => {
  const bob = await visitor('bob')
  const home = await bob.get('/')
  assert.match(home.body, /action="\/projects"/)
  const formKey = hiddenValue(home.body, 'form_key')
  assert.ok(formKey)
  const fields: [string, string][] = [
    ['form_key', formKey],
    ['name', 'Skunkworks'],
    ['description', 'Quiet work'],
    ['visibility', 'private'],
  ]
  const made = await bob.submit('/projects', fields)
  assert.equal(made.status, 303, mainText(made.body))
  const project = await t.db.db
    .selectFrom('projects')
    .select(['id', 'owner_id', 'visibility', 'description'])
    .where('name', '=', 'Skunkworks')
    .executeTakeFirstOrThrow()
  assert.equal(made.headers.location, `/${ws.workspace_id}/project/${project.id}`)
  assert.deepEqual(
    [project.owner_id, project.visibility, project.description],
    [id('bob'), 'private', 'Quiet work'],
  )
  assert.equal((await bob.get(String(made.headers.location))).status, 200)
  // A second click of the same form opens the same project and makes no other.
  const again = await bob.submit('/projects', fields)
  assert.equal(again.status, 303)
  assert.equal(again.headers.location, made.headers.location)
  const named = await t.db.db.selectFrom('projects').select('id').where('name', '=', 'Skunkworks')
  assert.equal((await named.execute()).length, 1)

  const blank = await bob.submit('/projects', [
    ['form_key', 'k2'],
    ['name', '   '],
    ['description', 'kept'],
  ])
  assert.equal(blank.status, 422)
  assert.match(blank.body, /id="project-name"[^>]* aria-invalid="true"/)
  assert.match(blank.body, />kept<\/textarea>/)

  const gus = await visitor('gus')
  assert.ok(!(await gus.get('/')).body.includes('action="/projects"'))
  const count = async () => (await t.db.db.selectFrom('projects').select('id').execute()).length
  const projects = await count()
  const refused = await gus.submit('/projects', [
    ['form_key', 'k3'],
    ['name', 'Guest project'],
  ])
  assert.equal(refused.status, 403)
  assert.match(mainText(refused.body), /Guests cannot create projects/)
  assert.equal(await count(), projects)
})

import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { ImportResult } from '../../../src/bundle/import-bundle.ts'
import { importOk, smallBundle, tokenOf } from '../../harness/bundles.ts'
import { client, startTestApp, type TestApp } from '../../harness/test-app.ts'

// `/v1/people`, `/v1/people/:id` and `/v1/teams` (graph/people/people.routes.ts).

let t: TestApp
let ws: ImportResult
const as = (key: string) => client(t.app, tokenOf(ws, key))
const id = (key: string) => ws.ids[key] as string
const ids = (reply: { json: { data: { id: string }[] } }) => reply.json.data.map((row) => row.id)

before(async () => {
  t = await startTestApp()
  ws = await importOk(t.db.db, smallBundle())
})
after(() => t.close())

test('a member sees every person, by name, and a team filter keeps its members', async () => {
  const everyone = await as('bob-key').get('/v1/people')
  assert.deepEqual(
    everyone.json.data.map((person: { name: string }) => person.name),
    ['Adam Admin', 'Alice Member', 'Bob Member', 'Gus Guest', 'Olive Owner'],
  )
  assert.deepEqual(ids(await as('bob-key').get(`/v1/people?team_id=${id('eng')}`)), [id('alice')])
  const alice = await as('bob-key').get(`/v1/people/${id('alice')}`)
  assert.equal(alice.json.name, 'Alice Member')
})

test('a guest sees only the people it works with, and the same 404 for the others', async () => {
  const seen = ids(await as('gus-key').get('/v1/people'))
  assert.ok(seen.includes(id('gus')), 'a guest sees itself')
  assert.ok(!seen.includes(id('bob')), 'and not a member it shares nothing with')
  const hidden = await as('gus-key').get(`/v1/people/${id('bob')}`)
  assert.equal(hidden.status, 404)
})

test('teams are listed by name', async () => {
  const teams = await as('bob-key').get('/v1/teams')
  assert.deepEqual(ids(teams), [id('eng')])
})

import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { ImportResult } from '../../src/bundle/import-bundle.ts'
import { importOk, smallBundle, tokenOf } from '../harness/bundles.ts'
import { client, startTestApp, type TestApp } from '../harness/test-app.ts'

// The `member` and `owner` filters of search, and the questions that read as them ("which
// projects am I on", "my OKRs"): what a person is on or owns, among what the caller may open, and
// never a membership the caller could not see (a team hidden from a guest).

let t: TestApp
let ws: ImportResult
before(async () => {
  t = await startTestApp()
  const base = smallBundle()
  ws = await importOk(t.db.db, {
    ...base,
    // Bob is on the open project only through Design, a team Gus the guest is not in, so cannot
    // see; Gus sees Bob himself, who belongs to a project Gus belongs to.
    teams: [...(base.teams ?? []), { key: 'design', name: 'Design', members: ['bob'] }],
    projects: (base.projects ?? []).map((project) =>
      project.key === 'open'
        ? { ...project, members: [...(project.members ?? []), { team: 'design' }] }
        : project,
    ),
  })
})
after(() => t.close())

// biome-ignore lint/suspicious/noExplicitAny: answers are checked field by field
type Json = any
const search = async (key: string, body: Record<string, unknown>): Promise<Json> => {
  const reply = await client(t.app, tokenOf(ws, key)).post('/v1/search', { limit: 50, ...body })
  assert.equal(reply.status, 200, reply.body)
  return reply.json
}
const keys = (answer: Json): string[] =>
  answer.results
    .map((hit: Json) => Object.entries(ws.ids).find(([, id]) => id === hit.id)?.[0] ?? hit.id)
    .sort()

test('which projects am I on: as the owner, a member, or through a team', async () => {
  const alice = await search('alice-key', { query: 'which projects am I on' })
  assert.deepEqual(alice.interpreted.filters.member, 'me')
  assert.deepEqual(alice.interpreted.types, ['project'])
  assert.deepEqual(keys(alice), ['open', 'secret'])
  assert.deepEqual(keys(await search('bob-key', { query: 'my projects' })), ['open'])
  assert.deepEqual(keys(await search('gus-key', { query: "projects I'm on" })), ['open'])
  assert.deepEqual(keys(await search('olive-key', { query: 'which projects am I on' })), [])
})

test('my OKRs and my canvases: what the asker owns', async () => {
  const okrs = await search('alice-key', { query: 'how are my OKRs looking' })
  assert.equal(okrs.interpreted.filters.owner, 'me')
  assert.deepEqual(keys(okrs), ['o1'])
  assert.deepEqual(keys(await search('alice-key', { query: 'my canvases' })), ['plan'])
  assert.deepEqual(keys(await search('bob-key', { query: 'my OKRs' })), [])
})

test('owner and member as filters of the request, with words that only rank', async () => {
  // Alice owns the secret project and its canvas too, which Olive, in neither, cannot open.
  const owned = await search('olive-key', { query: 'launch', filters: { owner: ws.ids.alice } })
  assert.deepEqual(keys(owned), ['o1', 'open'])
  const hers = await search('alice-key', { query: 'launch', filters: { owner: 'me' } })
  assert.deepEqual(keys(hers), ['o1', 'open', 'plan', 'secret'])
  const projects = await search('olive-key', { query: 'project', filters: { member: ws.ids.bob } })
  assert.deepEqual(keys(projects), ['open'])
})

test('a membership through a team the caller cannot see is not found', async () => {
  // Olive sees the Design team, so Bob's project; Gus sees Bob and the project, not the team.
  const answer = await search('gus-key', { query: 'project', filters: { member: ws.ids.bob } })
  assert.deepEqual(keys(answer), [])
})

test('a person hidden from the caller filters exactly as an unknown id', async () => {
  // Gus, a guest, cannot see Olive: she belongs to no project of his.
  const hidden = await search('gus-key', { query: 'project', filters: { owner: ws.ids.olive } })
  const unknown = await search('gus-key', {
    query: 'project',
    filters: { owner: 'usr_00000000000000000000000000' },
  })
  assert.deepEqual(hidden.results, [])
  // The same answer but for the id echoed, and the tokens that echo costs.
  const apart = ({ budget: _, ...answer }: Json) => ({
    ...answer,
    interpreted: { ...answer.interpreted, filters: {} },
  })
  assert.deepEqual(apart(hidden), apart(unknown))
})

import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { Bundle } from '../../src/bundle/bundle.schema.ts'
import { demoBundle } from '../../src/bundle/demo/demo-bundle.ts'
import type { ImportResult } from '../../src/bundle/import-bundle.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { importOk, tokenOf } from '../harness/bundles.ts'
import { searchAll } from '../harness/check-search.ts'
import { callToolInProcess } from '../harness/mcp-inject.ts'
import { allPages, client, startTestApp, type TestApp } from '../harness/test-app.ts'

// The demo's "today" is a Sunday: "last week" is 9–15 November.
const TODAY = '2026-11-22'
let t: TestApp
let ws: ImportResult
let bundle: Bundle
before(async () => {
  t = await startTestApp({ clock: new ManualClock(`${TODAY}T12:00:00.000Z`) })
  bundle = demoBundle({ today: TODAY })
  ws = await importOk(t.db.db, bundle, { now: new Date(`${TODAY}T12:00:00.000Z`) })
})
after(() => t.close())

// biome-ignore lint/suspicious/noExplicitAny: responses are checked field by field
type Json = any
const ask = async (key: string, body: Record<string, unknown>): Promise<Json> => {
  const reply = await client(t.app, tokenOf(ws, key)).post('/v1/search', body)
  return { status: reply.status, ...reply.json, body: reply.body }
}
const keyOf = (id: string) => Object.entries(ws.ids).find(([, value]) => value === id)?.[0]
const tasks = (keep: (task: NonNullable<Bundle['tasks']>[number]) => boolean) =>
  (bundle.tasks ?? []).filter(keep).map((task) => task.key)
const titles = (answer: Json): string[] => answer.results.map((hit: Json) => hit.title)

test('"what is blocking the checkout redesign?" lists the blocked tasks of that project', async () => {
  const answer = await ask('ada-key', { query: 'what is blocking the checkout redesign?' })
  assert.equal(answer.status, 200, answer.body)
  assert.deepEqual(answer.interpreted.filters.status, ['blocked'])
  assert.equal(answer.interpreted.filters.project_id, ws.ids.checkout)
  assert.equal(answer.interpreted.filters.project_name, 'Checkout redesign')
  const blocked = tasks((task) => task.project === 'checkout' && task.status === 'blocked')
  assert.ok(blocked.length > 0)
  assert.deepEqual(answer.results.map((hit: Json) => keyOf(hit.id)).sort(), blocked.sort())
})

test('"status of the data platform migration" finds the project first', async () => {
  const answer = await ask('ada-key', { query: 'status of the data platform migration' })
  assert.equal(answer.results[0].id, ws.ids.dataplat)
  assert.deepEqual(answer.interpreted.words, ['data', 'platform', 'migration'])
  assert.ok(titles(answer).includes('Migration runbook'))
})

test('"post mortem for the outage" finds the post-mortems', async () => {
  const answer = await ask('ada-key', { query: 'post mortem for the outage' })
  const top = titles(answer).slice(0, 3)
  assert.ok(top.includes('Post-mortem: 3 November'), `${top}`)
  assert.ok(top.includes('Customer-facing post-mortem'), `${top}`)
  assert.ok(top.includes('Incident review: November outage'), `${top}`)
})

test('"acessibility audit" (a typo) finds the Accessibility audit project first', async () => {
  const answer = await ask('ada-key', { query: 'acessibility audit' })
  assert.equal(answer.results[0].title, 'Accessibility audit')
  assert.equal(answer.results[0].citation.field, 'title')
})

test('"tokenize cards on the client" finds the British "Tokenise"', async () => {
  const answer = await ask('ada-key', { query: 'tokenize cards on the client' })
  assert.equal(answer.results[0].title, 'Tokenise cards on the client')
})

test('any word may match, items covering more of the question first; never empty while a word matches', async () => {
  const answer = await ask('ada-key', { query: 'payment provider zyzzyva', limit: 50 })
  assert.ok(answer.results.length > 3)
  // The two items whose titles have both words, the blocked task first among equals.
  assert.deepEqual(titles(answer).slice(0, 2), [
    'Support saved cards through the payment provider vault',
    'Payment provider comparison',
  ])
  const scores = answer.results.map((hit: Json) => hit.score)
  assert.deepEqual(
    scores,
    [...scores].sort((a, b) => b - a),
  )
  // Covering both words outranks covering one, whatever else.
  const both = answer.results.findIndex((hit: Json) => hit.score < 2)
  assert.ok(answer.results.slice(both).every((hit: Json) => hit.score < 2))
  const prefix = await ask('ada-key', { query: 'checkout redes' })
  assert.ok(titles(prefix).slice(0, 2).includes('Checkout redesign'), 'the last word is a prefix')
  const hyphen = await ask('ada-key', { query: 'post-mortem' })
  assert.ok(titles(hyphen).includes('Post-mortem: 3 November'))
  const american = await ask('ada-key', { query: 'color contrast' })
  // Both titles spelled the British way, the blocked one first among equals.
  assert.deepEqual([...titles(american).slice(0, 2)].sort(), [
    'Colour contrast fixes',
    'Colour palette with accessible contrast',
  ])
})

test('the filter grammar: words that name filters, and explicit key:value filters', async () => {
  const mine = await ask('elena-read', { query: 'my overdue tasks', limit: 50 })
  assert.deepEqual(mine.interpreted.filters, {
    due_before: '2026-11-21',
    status: ['todo', 'in_progress', 'blocked'],
    assignee: 'me',
  })
  assert.deepEqual(mine.interpreted.types, ['task'])
  const overdue = tasks(
    (task) => task.assignee === 'elena' && task.status !== 'done' && !!task.due && task.due < TODAY,
  )
  assert.deepEqual(mine.results.map((hit: Json) => keyOf(hit.id)).sort(), overdue.sort())
  const done = await ask('ada-key', { query: 'done last week', limit: 50 })
  // "done last week" is of the time of completing, not of the last change.
  assert.deepEqual(done.interpreted.filters, {
    status: ['done'],
    completed_after: '2026-11-09T00:00:00.000Z',
    completed_before: '2026-11-16T00:00:00.000Z',
  })
  const doneLastWeek = tasks((task) => {
    const at = task.completed_at ?? task.created_at ?? ''
    return task.status === 'done' && at >= '2026-11-09' && at < '2026-11-16'
  })
  assert.ok(doneLastWeek.length > 0)
  assert.deepEqual(done.results.map((hit: Json) => keyOf(hit.id)).sort(), doneLastWeek.sort())
  const blocked = await ask('ada-key', { query: 'blocked tasks in checkout', limit: 50 })
  assert.equal(blocked.interpreted.filters.project_id, ws.ids.checkout)
  assert.deepEqual(blocked.interpreted.words, [])
  const explicit = await ask('ada-key', {
    query: 'status:blocked,todo project:checkout due<2026-12-01 updated>2026-01-01 payment',
    limit: 50,
  })
  assert.equal(explicit.status, 200, explicit.body)
  assert.deepEqual(explicit.interpreted.filters, {
    status: ['blocked', 'todo'],
    due_before: '2026-11-30',
    updated_after: '2026-01-02T00:00:00.000Z',
    project_id: ws.ids.checkout,
    project_name: 'Checkout redesign',
  })
  assert.deepEqual(explicit.interpreted.words, ['payment'])
  for (const hit of explicit.results) {
    const task = bundle.tasks?.find((x) => x.key === keyOf(hit.id))
    assert.ok(task && ['blocked', 'todo'].includes(task.status) && task.project === 'checkout')
    assert.ok(hit.due && hit.due < '2026-12-01')
  }
  // A quoted status word is text, and an impossible date in the query is just words.
  const words = await ask('ada-key', { query: '"done" due<2026-02-30' })
  assert.equal(words.status, 200)
  assert.deepEqual(words.interpreted.filters, {})
})

test('the filters object narrows like the query, and replaces the same filter read from it', async () => {
  const answer = await ask('ada-key', {
    query: 'blocked tasks',
    filters: { status: 'done', project_id: ws.ids.dataplat },
    limit: 50,
  })
  assert.equal(answer.status, 200, answer.body)
  assert.deepEqual(answer.interpreted.filters.status, ['done'])
  const expected = tasks((task) => task.project === 'dataplat' && task.status === 'done')
  assert.deepEqual(answer.results.map((hit: Json) => keyOf(hit.id)).sort(), expected.sort())
  const authored = await ask('ada-key', {
    query: 'dashboard',
    filters: { created_by: ws.ids.ben },
    limit: 50,
  })
  assert.ok(
    authored.results.every((hit: Json) => ['task', 'comment', 'activity'].includes(hit.type)),
  )
})

test('a filter on an id the caller cannot open answers exactly as an unknown id does', async () => {
  // Noor is a guest outside the private pricing project.
  for (const [field, hidden, unknown] of [
    ['project_id', ws.ids.pricing, 'prj_00000000000000000000000000'],
    ['assignee', ws.ids.dara, 'usr_00000000000000000000000000'],
    ['created_by', ws.ids.dara, 'usr_00000000000000000000000000'],
  ] as const) {
    const seen = await ask('noor-read', { query: 'pricing', filters: { [field]: hidden } })
    const none = await ask('noor-read', { query: 'pricing', filters: { [field]: unknown } })
    assert.equal(seen.status, 200, seen.body)
    // Ids differ in how many tokens they take, so the counts are left out of the comparison.
    const same = (body: string, id: string) =>
      body.replaceAll(id, 'ID').replace(/"used_tokens":\d+/, '')
    assert.equal(same(seen.body, hidden as string), same(none.body, unknown), field)
    assert.deepEqual(seen.results, [])
  }
  const named = await ask('noor-read', { query: 'project:pricing' })
  const nameless = await ask('noor-read', { query: 'project:zzzz' })
  assert.deepEqual(named.results, [])
  assert.deepEqual(nameless.results, [])
})

test('malformed filters are 422 problems, never 500s', async () => {
  for (const filters of [
    { status: 'stuck' },
    { status: [] },
    { due_before: '2026-02-30' },
    { due_before: 'tomorrow' },
    { updated_after: '2026-13-01T00:00:00Z' },
    { assignee: '' },
    { project_id: 42 },
    { colour: 'red' },
    'status:done',
  ]) {
    const answer = await ask('ada-key', { query: 'checkout', filters })
    assert.equal(answer.status, 422, `${JSON.stringify(filters)} → ${answer.body}`)
    assert.ok(answer.errors.length > 0)
  }
})

test('a cursor is bound to the filters', async () => {
  const first = await ask('ada-key', { query: 'tasks', limit: 1, filters: { status: 'todo' } })
  assert.ok(first.next_cursor)
  const other = await ask('ada-key', {
    query: 'tasks',
    limit: 1,
    filters: { status: 'done' },
    cursor: first.next_cursor,
  })
  assert.equal(other.status, 400)
  const all = await searchAll(t.app, tokenOf(ws, 'ada-key'), {
    query: 'tasks',
    limit: 20,
    max_tokens: 20_000,
    filters: { status: 'todo' },
  })
  const got = all.map((hit: Json) => keyOf(hit.id) as string)
  assert.equal(new Set(got).size, got.length, 'no repeats')
  const todo = new Set(tasks((task) => task.status === 'todo'))
  assert.ok(got.every((key) => todo.has(key)))
  const open = new Set(
    (bundle.projects ?? []).filter((p) => p.visibility === 'workspace').map((p) => p.key),
  )
  const expected = tasks((task) => task.status === 'todo' && open.has(task.project ?? ''))
  assert.ok(expected.every((key) => got.includes(key)))
})

test('a person named in the question is the assignee: possessive, "assigned to", "for", "what is … doing"', async () => {
  const kemi = ws.ids.kemi
  // What the list of her tasks holds for Ada, who cannot open every project.
  const api = client(t.app, tokenOf(ws, 'ada-key'))
  const listed = await allPages(api, `/v1/tasks?assignee_id=${kemi}`, 100)
  const theirs = listed.map((task: Json) => task.id).sort()
  assert.ok(theirs.length > 3)
  for (const query of [
    "Kemi Adeyemi's tasks",
    'tasks assigned to Kemi Adeyemi',
    'assignee:"Kemi Adeyemi"',
  ]) {
    const answer = await ask('ada-key', { query, limit: 50, max_tokens: 20_000 })
    assert.equal(answer.interpreted.filters.assignee, kemi, query)
    assert.equal(answer.interpreted.filters.assignee_name, 'Kemi Adeyemi', query)
    assert.deepEqual(answer.interpreted.words, [], query)
    assert.deepEqual(answer.results.map((hit: Json) => hit.id).sort(), theirs, query)
  }
  // A first name that only one person has is enough; "what is … doing" is their work in progress.
  const jonas = await ask('ada-key', { query: 'blocked tasks for Jonas' })
  assert.equal(jonas.interpreted.filters.assignee, ws.ids.jonas)
  assert.deepEqual(jonas.interpreted.filters.status, ['blocked'])
  const ben = await ask('ada-key', { query: 'what is Ben Lindqvist doing', limit: 50 })
  assert.equal(ben.interpreted.filters.assignee, ws.ids.ben)
  assert.deepEqual(ben.interpreted.filters.status, ['in_progress'])
  assert.ok(ben.results.length > 0)
  // The filters object takes a name too.
  const byName = await ask('ada-key', { query: 'tasks', filters: { assignee: 'Kemi Adeyemi' } })
  assert.equal(byName.interpreted.filters.assignee, kemi)
})

test('a name is a filter only for a token that reads people, and only when it names one person', async () => {
  // Noor's key reads tasks but not people: the words stay words.
  const noor = await ask('noor-read', { query: "Kemi Adeyemi's tasks" })
  assert.equal(noor.status, 200, noor.body)
  assert.equal(noor.interpreted.filters.assignee, undefined)
  // "Haddad" is two people: no filter is guessed.
  const haddad = await ask('ada-key', { query: "Haddad's tasks" })
  assert.equal(haddad.interpreted.filters.assignee, undefined)
  // A name in the filters object that names nobody finds nothing, as an unknown id does.
  const nobody = await ask('ada-key', { query: 'tasks', filters: { assignee: 'Nobody Atall' } })
  assert.equal(nobody.status, 200, nobody.body)
  assert.deepEqual(nobody.results, [])
})

test('"due" binds a time to the due date, of what is still to do', async () => {
  const tomorrow = await ask('ada-key', { query: 'due tomorrow', limit: 50 })
  assert.equal(tomorrow.interpreted.filters.due_after, '2026-11-23')
  assert.equal(tomorrow.interpreted.filters.due_before, '2026-11-23')
  assert.deepEqual(tomorrow.interpreted.filters.status, ['todo', 'in_progress', 'blocked'])
  assert.equal(tomorrow.interpreted.filters.updated_after, undefined)
  const nextWeek = await ask('ada-key', { query: 'what is due next week', limit: 50 })
  assert.equal(nextWeek.interpreted.filters.due_after, '2026-11-23')
  assert.equal(nextWeek.interpreted.filters.due_before, '2026-11-29')
  const thisWeek = await ask('ada-key', { query: 'tasks due this week', limit: 50 })
  assert.equal(thisWeek.interpreted.filters.due_after, '2026-11-16')
  assert.equal(thisWeek.interpreted.filters.due_before, '2026-11-22')
  // Without "due", a time is of the last change, or for "done" of completing.
  const done = await ask('ada-key', { query: 'done last week' })
  assert.equal(done.interpreted.filters.due_after, undefined)
  assert.ok(done.interpreted.filters.completed_after)
  const changed = await ask('ada-key', { query: 'what changed in checkout since Monday' })
  assert.equal(changed.interpreted.filters.updated_after, '2026-11-16T00:00:00.000Z')
  assert.equal(changed.interpreted.filters.updated_before, undefined)
  assert.equal(changed.interpreted.filters.project_id, ws.ids.checkout)
  assert.deepEqual(changed.interpreted.words, [])
  assert.ok(changed.results.length > 0)
  for (const hit of changed.results) assert.ok(hit.updated_at >= '2026-11-16', hit.updated_at)
})

test('a kind named in the question is what it lists: "canvases in checkout", "comments about …"', async () => {
  const canvases = await ask('ada-key', { query: 'canvases in checkout', limit: 50 })
  assert.deepEqual(canvases.interpreted.types, ['canvas'])
  assert.equal(canvases.interpreted.filters.project_id, ws.ids.checkout)
  const expected = (bundle.canvases ?? []).filter((c) => c.project === 'checkout')
  assert.ok(expected.length > 0)
  assert.deepEqual(
    canvases.results.map((hit: Json) => keyOf(hit.id)).sort(),
    expected.map((c) => c.key).sort(),
  )
  const comments = await ask('ada-key', { query: 'comments about staging' })
  assert.deepEqual(comments.interpreted.types, ['comment'])
  assert.deepEqual(comments.interpreted.words, ['staging'])
  assert.ok(comments.results.length > 0)
  assert.ok(comments.results.every((hit: Json) => hit.type === 'comment'))
  // Where the plural is only part of a name, it is a word to find.
  const inline = await ask('ada-key', { query: 'inline comments' })
  assert.ok(inline.interpreted.types.length > 1)
  assert.ok(inline.interpreted.words.includes('comments'))
})

test('a team named with what is asked filters: its people, its projects, its members’ tasks', async () => {
  const members = (key: string) => bundle.teams?.find((team) => team.key === key)?.members ?? []
  const keys = (answer: Json) => answer.results.map((hit: Json) => keyOf(hit.id)).sort()
  const people = await ask('ada-key', { query: 'people on the platform team', limit: 50 })
  assert.equal(people.interpreted.filters.team_name, 'Platform')
  assert.deepEqual(people.interpreted.types, ['person'])
  assert.deepEqual(keys(people), [...members('platform')].sort())
  const who = await ask('ada-key', { query: 'who is on the platform team?', limit: 50 })
  assert.deepEqual(keys(who), keys(people))
  const projects = await ask('ada-key', { query: "the web team's projects", limit: 50 })
  assert.deepEqual(projects.interpreted.types, ['project'])
  const ofWeb = (bundle.projects ?? []).filter((project) =>
    (project.members ?? []).some((member) => 'team' in member && member.team === 'web'),
  )
  assert.ok(ofWeb.length > 0)
  assert.deepEqual(keys(projects), ofWeb.map((project) => project.key).sort())
  const tasksOf = await ask('ada-key', { query: 'tasks of the web team', limit: 50 })
  assert.deepEqual(tasksOf.interpreted.types, ['task'])
  assert.deepEqual(tasksOf.interpreted.words, [])
  const web = new Set(members('web'))
  assert.ok(tasksOf.results.length > 0)
  for (const hit of tasksOf.results) {
    const task = bundle.tasks?.find((x) => x.key === keyOf(hit.id))
    assert.ok(task?.assignee && web.has(task.assignee), hit.title)
  }
  // Alone, "platform team" finds the team itself; an explicit `team:` filters by name too.
  const alone = await ask('ada-key', { query: 'platform team' })
  assert.equal(alone.interpreted.filters.team, undefined)
  assert.equal(keyOf(alone.results[0].id), 'platform')
  const explicit = await ask('ada-key', { query: 'team:platform', limit: 50, types: ['person'] })
  assert.deepEqual(keys(explicit), keys(people))
  // A name no team has matches nothing; so does the id of none.
  const nobody = await ask('ada-key', { query: 'people', filters: { team: 'Nonexistent' } })
  assert.deepEqual(nobody.results, [])
})

test('"which OKRs are off track" lists the objectives of that health, by the one formula', async () => {
  for (const [query, verdicts] of [
    ['which OKRs are off track', ['off_track']],
    ['objectives at risk', ['at_risk']],
    ['okrs behind', ['at_risk', 'off_track']],
  ] as const) {
    const answer = await ask('ada-key', { query, limit: 50 })
    assert.equal(answer.status, 200, answer.body)
    assert.deepEqual(answer.interpreted.types, ['okr'])
    assert.deepEqual(answer.interpreted.filters.health, verdicts)
    // Every objective of those verdicts is listed, and only they: as their records say.
    const all = await allPages(client(t.app, tokenOf(ws, 'ada-key')), '/v1/okrs', 100)
    const wanted = all
      .filter(
        (okr: Json) => okr.health && (verdicts as readonly string[]).includes(okr.health.verdict),
      )
      .map((okr: Json) => okr.id)
    assert.deepEqual(answer.results.map((hit: Json) => hit.id).sort(), wanted.sort(), query)
  }
  const explicit = await ask('ada-key', { query: 'growth', filters: { health: 'on_track' } })
  assert.deepEqual(explicit.interpreted.filters.health, ['on_track'])
  assert.ok(
    explicit.results.every((hit: Json) => hit.type === 'okr' && hit.health.verdict === 'on_track'),
  )
})

test('two words written apart match the one word they make: "road map", "hand book"', async () => {
  const roadmap = await ask('ada-key', { query: 'road map' })
  const firstTwo = roadmap.results.slice(0, 2).map((hit: Json) => keyOf(hit.id))
  assert.deepEqual(firstTwo.sort(), ['cab-t2', 'roadmap'])
  const handbook = await ask('ada-key', { query: 'hand book' })
  assert.equal(keyOf(handbook.results[0].id), 'handbook')
})

test('an empty answer under filters offers the words alone to try next, and says so over MCP', async () => {
  const none = await ask('ada-key', { query: 'due<2000-01-01 apple pay' })
  assert.deepEqual(none.results, [])
  assert.equal(none.interpreted.broader, 'apple pay')
  const found = await ask('ada-key', { query: none.interpreted.broader })
  assert.equal(keyOf(found.results[0].id), 'checkout-t5')
  // Words alone that match nothing have nothing broader to offer; a page that matched has none.
  assert.equal((await ask('ada-key', { query: 'zzqx' })).interpreted.broader, undefined)
  assert.equal((await ask('ada-key', { query: 'apple pay' })).interpreted.broader, undefined)
})

test('an answer that would be empty leaves out the states and times read from words, keeps the names, and says so', async () => {
  const query = 'what did elena finish today on apple pay'
  const answer = await ask('ada-key', { query, limit: 2 })
  assert.equal(answer.status, 200, answer.body)
  assert.equal(answer.interpreted.filters.assignee, ws.ids.elena)
  assert.equal(answer.interpreted.filters.assignee_name, 'Elena Petrova')
  assert.deepEqual(answer.interpreted.dropped.filters, {
    status: ['done'],
    completed_after: `${TODAY}T00:00:00.000Z`,
    completed_before: '2026-11-23T00:00:00.000Z',
  })
  assert.equal(answer.interpreted.filters.status, undefined)
  assert.equal(answer.interpreted.broader, undefined)
  const elenas = tasks((task) => task.assignee === 'elena')
  assert.ok(answer.results.length === 2 && answer.next_cursor)
  // Its pages go on under what it kept, never repeating a hit.
  const rest = await ask('ada-key', { query, limit: 2, cursor: answer.next_cursor })
  assert.equal(rest.status, 200, rest.body)
  assert.deepEqual(rest.interpreted.dropped, answer.interpreted.dropped)
  const keys = [...answer.results, ...rest.results].map((hit: Json) => keyOf(hit.id) as string)
  assert.equal(new Set(keys).size, 4)
  assert.ok(
    keys.every((key) => elenas.includes(key)),
    `${keys}`,
  )
  // Another query's cursor is still refused.
  const other = await ask('ada-key', { query: 'apple pay', cursor: answer.next_cursor })
  assert.equal(other.status, 400)
  // What MCP's search says of it.
  const called = await callToolInProcess(t.app, tokenOf(ws, 'ada-key'), 'search', { query })
  const text = called.content.map((part) => ('text' in part ? part.text : '')).join('\n')
  assert.match(text, /Nothing you can open matched all of it: these leave out status done;/)
})

test('filters given in `filters` or typed in the query are never left out', async () => {
  const given = await ask('ada-key', {
    query: 'apple pay',
    filters: { status: 'done', completed_after: '2030-01-01' },
  })
  assert.deepEqual(given.results, [])
  assert.equal(given.interpreted.dropped, undefined)
  assert.equal(given.interpreted.broader, 'apple pay')
  const typed = await ask('ada-key', { query: 'status:done due<2000-01-01 apple pay' })
  assert.deepEqual(typed.results, [])
  assert.equal(typed.interpreted.dropped, undefined)
})

test('"who\'s in leadership" lists the team\'s people, though no word of the question is in their names', async () => {
  const answer = await ask('ada-key', { query: "who's in leadership" })
  assert.equal(answer.interpreted.filters.team_name, 'Leadership')
  assert.deepEqual(answer.interpreted.types, ['person'])
  assert.deepEqual(answer.results.map((hit: Json) => keyOf(hit.id)).sort(), ['ada', 'ben', 'chen'])
  // Words that name no team stay words.
  const words = await ask('ada-key', { query: "who's on zzqx" })
  assert.equal(words.interpreted.filters.team, undefined)
})

test('"which tasks were created this month": a word of making with a time is the time of creating', async () => {
  const answer = await ask('ada-key', { query: 'which tasks were created this month' })
  assert.deepEqual(answer.interpreted.filters, {
    created_after: '2026-11-01T00:00:00.000Z',
    created_before: '2026-12-01T00:00:00.000Z',
  })
  assert.deepEqual(answer.interpreted.types, ['task'])
  const hits = await searchAll(t.app, tokenOf(ws, 'ada-key'), {
    query: 'which tasks were created this month',
    limit: 50,
    max_tokens: 20_000,
  })
  const made = tasks((task) => (task.created_at ?? '') >= '2026-11-01')
  // Ada sees every task of the demo but others' private to-dos.
  const found = hits.map((hit: Json) => keyOf(hit.id) as string)
  assert.ok(found.length > 0 && found.every((key) => made.includes(key)), `${found}`)
  assert.deepEqual(
    (await ask('ada-key', { query: 'new tasks in checkout this week' })).interpreted.filters
      .created_after,
    '2026-11-16T00:00:00.000Z',
  )
})

test('"my team\'s tasks" are those of the one team the asker is on, not the asker\'s', async () => {
  const answer = await ask('elena-read', { query: "which of my team's tasks have no due date" })
  assert.equal(answer.interpreted.filters.team_name, 'Product')
  assert.equal(answer.interpreted.filters.assignee, undefined)
  const product = ['chen', 'elena', 'farid', 'xavier', 'bea']
  const expected = tasks((task) => product.includes(task.assignee ?? '') && !task.due)
  const found = answer.results.map((hit: Json) => keyOf(hit.id) as string)
  assert.ok(found.length > 0 && found.every((key: string) => expected.includes(key)), `${found}`)
  // Ada is on one team too.
  const ada = await ask('ada-key', { query: "my team's tasks" })
  assert.equal(ada.interpreted.filters.team_name, 'Leadership')
})

test('names are read without accents: "what has ines done" is Inès Dubois\'s finished work', async () => {
  const answer = await ask('ada-key', { query: 'what has ines done' })
  assert.equal(answer.interpreted.filters.assignee_name, 'Inès Dubois')
  assert.deepEqual(answer.interpreted.filters.status, ['done'])
  const given = await ask('ada-key', { query: 'tasks', filters: { assignee: 'rosa jimenez' } })
  assert.equal(given.interpreted.filters.assignee, ws.ids.rosa)
})

test('words that are names of JavaScript object members are words like any other', async () => {
  for (const query of ['constructor', 'constructor tasks', 'toString', 'status:constructor']) {
    const answer = await ask('ada-key', { query })
    assert.equal(answer.status, 200, `${query}: ${answer.body}`)
    assert.equal(answer.interpreted.filters.status, undefined, query)
  }
  const blocking = await ask('ada-key', { query: 'what is blocking constructor' })
  assert.deepEqual(blocking.interpreted.filters.status, ['blocked'])
})

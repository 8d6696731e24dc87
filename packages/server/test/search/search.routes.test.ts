import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import fc from 'fast-check'
import type { ImportResult } from '../../src/bundle/import-bundle.ts'
import { countTokens } from '../../src/lib/token-budget.ts'
import { parseQuestion } from '../../src/search/question-parser.ts'
import { searchIndex } from '../../src/search/search.queries.ts'
import { ALL_READ_SCOPES, importOk, smallBundle, tokenOf } from '../harness/bundles.ts'
import { searchAll } from '../harness/check-search.ts'
import { fuzzRuns } from '../harness/property-settings.ts'
import { client, startTestApp, type TestApp } from '../harness/test-app.ts'

let t: TestApp
let ws: ImportResult
const LONG_SUMMARY = Array.from(
  { length: 60 },
  (_, i) =>
    `Sentence number ${i} explains the heliotrope rollout in detail.${i === 37 ? ' Zanzibar ✓.' : ''}`,
).join(' ')
before(async () => {
  t = await startTestApp()
  const bundle = smallBundle()
  bundle.projects?.push({
    key: 'helio',
    name: 'Heliotrope',
    description: 'A public project',
    status: 'active',
    visibility: 'workspace',
    owner: 'alice',
    created_at: '2026-03-01T00:00:00Z',
  })
  bundle.tasks?.push(
    {
      key: 'h-title',
      title: 'Heliotrope launch checklist',
      status: 'todo',
      project: 'helio',
      creator: 'alice',
      created_at: '2026-03-02T00:00:00Z',
    },
    {
      key: 'h-body',
      title: 'Checklist',
      description: 'Everything about heliotrope goes here.',
      status: 'todo',
      project: 'helio',
      creator: 'alice',
      created_at: '2026-03-05T00:00:00Z',
    },
    {
      key: 'h-old',
      title: 'Heliotrope retro',
      status: 'done',
      project: 'helio',
      creator: 'alice',
      created_at: '2026-03-01T00:00:00Z',
    },
    {
      key: 'h-new',
      title: 'Heliotrope review',
      status: 'todo',
      project: 'helio',
      creator: 'alice',
      created_at: '2026-03-09T00:00:00Z',
    },
    {
      key: 'plain',
      title: 'Unrelated work',
      status: 'todo',
      project: 'helio',
      creator: 'alice',
      created_at: '2026-03-03T00:00:00Z',
    },
    {
      key: 'secret-h',
      title: 'Heliotrope budget',
      status: 'todo',
      project: 'secret',
      creator: 'alice',
      created_at: '2026-03-04T00:00:00Z',
    },
  )
  bundle.canvases?.push({
    key: 'long',
    title: 'Rollout notes',
    summary: LONG_SUMMARY,
    project: 'helio',
    visibility: 'project',
    owner: 'alice',
    created_at: '2026-03-06T00:00:00Z',
  })
  bundle.comments?.push({
    key: 'c-h',
    on: 'plain',
    author: 'bob',
    body: 'Does heliotrope block this?',
    at: '2026-03-07T00:00:00Z',
  })
  bundle.api_keys?.push({ key: 'tasks-only', person: 'bob', scopes: ['task:read'] })
  ws = await importOk(t.db.db, bundle)
})
after(() => t.close())

const search = (key: string, body: Record<string, unknown>) =>
  client(t.app, tokenOf(ws, key)).post('/v1/search', body)
const titles = (reply: { json: { results: { title: string }[] } }) =>
  reply.json.results.map((hit) => hit.title)

test('hits carry what an agent asks next: status, assignee, due date and path; an objective’s progress and health', async () => {
  const task = (await search('alice-key', { query: 'open task', types: ['task'] })).json.results[0]
  assert.equal(task.id, ws.ids['t-open'])
  assert.deepEqual(
    { status: task.status, assignee: task.assignee, due: task.due, path: task.path },
    { status: 'todo', assignee: 'Gus Guest', due: '2026-12-01', path: 'Open project' },
  )
  // Without people:read the assignee is not named, nor read from a name in the question, though
  // the token's owner (a member) sees everyone.
  const blind = (await search('tasks-only', { query: 'open task' })).json.results[0]
  assert.equal(blind.id, ws.ids['t-open'])
  assert.equal(blind.assignee, null)
  const named = await search('alice-key', { query: "Gus Guest's tasks" })
  assert.equal(named.json.interpreted.filters.assignee, ws.ids.gus)
  const unnamed = await search('tasks-only', { query: "Gus Guest's tasks" })
  assert.equal(unnamed.json.interpreted.filters.assignee, undefined)
  const project = (await search('alice-key', { query: 'heliotrope', types: ['project'] })).json
    .results[0]
  assert.equal(project.status, 'active')
  const okr = (await search('alice-key', { query: 'grow', types: ['okr'] })).json.results[0]
  assert.equal(okr.id, ws.ids.o1)
  assert.equal(okr.progress, 0.4)
  assert.equal(okr.confidence, null)
  assert.ok(['achieved', 'on_track', 'at_risk', 'off_track'].includes(okr.health.verdict))
  assert.equal(typeof okr.health.expected_progress, 'number')
})

test('titles rank above bodies, and both above what only its project names; among equals the most recently updated comes first', async () => {
  const reply = await search('bob-key', { query: 'heliotrope', types: ['task'] })
  assert.equal(reply.status, 200)
  assert.deepEqual(titles(reply), [
    'Heliotrope review',
    'Heliotrope launch checklist',
    'Heliotrope retro',
    'Checklist',
    'Unrelated work',
  ])
  const scores = reply.json.results.map((hit: { score: number }) => hit.score)
  assert.ok(scores[0] === scores[1] && scores[2] > scores[3], `${scores}`)
  // Each text once: the hit is the cited resource, and a title match needs no quote.
  const first = reply.json.results[0]
  assert.deepEqual(first.citation, {
    field: 'title',
    updated_at: first.updated_at,
    range: { start: 0, end: 'Heliotrope review'.length },
  })
  assert.equal(reply.json.results[0].api_url, undefined)
  assert.equal(
    reply.json.results[0].url,
    `${t.deps.config.appUrl}/${ws.workspace_id}/task/${ws.ids['h-new']}`,
  )
  const body = reply.json.results[3]
  // The quote would repeat the snippet; the range says where the snippet is in the description.
  assert.deepEqual(body.citation, {
    field: 'description',
    updated_at: body.updated_at,
    range: { start: 0, end: body.snippet.length },
  })
  assert.ok('Everything about heliotrope goes here.'.startsWith(body.snippet))
  assert.match(body.snippet, /heliotrope/i)
  assert.equal(body.path, 'Heliotrope')
  assert.equal(body.due, null)
})

test("an item matches on its own text or its project's, never on its comments", async () => {
  const reply = await search('bob-key', { query: 'heliotrope', limit: 50, max_tokens: 20_000 })
  const hits = reply.json.results.map((hit: { id: string }) => hit.id)
  // Its project is named Heliotrope: it matches as part of it, after all that say the word.
  const own = ['h-title', 'h-body', 'h-old', 'h-new', 'c-h', 'helio'].map((key) => ws.ids[key])
  assert.ok(
    own.every((id) => hits.indexOf(id) >= 0 && hits.indexOf(id) < hits.indexOf(ws.ids.plain)),
    'the commented task ranks after everything that says the word itself',
  )
  const other = await search('bob-key', { query: 'block', limit: 50, max_tokens: 20_000 })
  assert.ok(
    !other.json.results.some((hit: { id: string }) => hit.id === ws.ids.plain),
    'a word only its comment has does not match it',
  )
  assert.ok(hits.includes(ws.ids['c-h']), 'the comment itself does')
  assert.ok(!hits.includes(ws.ids['secret-h']), 'hidden items never match')
  const comment = reply.json.results.find((hit: { id: string }) => hit.id === ws.ids['c-h'])
  assert.equal(comment.title, 'Comment on Unrelated work')
  assert.equal(comment.path, 'Heliotrope › Unrelated work')
})

test('English stems and exact words both match; websearch syntax works', async () => {
  assert.ok(
    titles(await search('alice-key', { query: 'checklists' })).includes(
      'Heliotrope launch checklist',
    ),
  )
  assert.deepEqual(titles(await search('alice-key', { query: '"launch checklist"' })), [
    'Heliotrope launch checklist',
  ])
  assert.ok(
    !titles(await search('alice-key', { query: 'heliotrope -review', types: ['task'] })).includes(
      'Heliotrope review',
    ),
  )
  const either = titles(await search('alice-key', { query: 'retro or budget', types: ['task'] }))
  assert.deepEqual([...either].sort(), ['Heliotrope budget', 'Heliotrope retro'])
})

test('types default to what the token may read; naming another is a 403', async () => {
  const narrow = await search('tasks-only', { query: 'heliotrope' })
  assert.equal(narrow.status, 200)
  assert.ok(narrow.json.results.every((hit: { type: string }) => hit.type === 'task'))
  const forbidden = await search('tasks-only', { query: 'heliotrope', types: ['task', 'comment'] })
  assert.equal(forbidden.status, 403)
  assert.deepEqual(forbidden.json.required_scopes, ['comment:read'])
  assert.equal((await search('bob-key', { query: 'x', types: ['spreadsheet'] })).status, 422)
})

test('paging follows the ranking to the end without repeats; a cursor is bound to its query', async () => {
  const all = await searchAll(t.app, tokenOf(ws, 'bob-key'), {
    query: 'heliotrope',
    limit: 1,
    max_tokens: 20_000,
  })
  const whole = (await search('bob-key', { query: 'heliotrope', limit: 50, max_tokens: 20_000 }))
    .json.results
  assert.deepEqual(
    all.map((hit) => hit.id),
    whole.map((hit: { id: string }) => hit.id),
  )
  const first = await search('bob-key', { query: 'heliotrope', limit: 1 })
  const other = await search('bob-key', {
    query: 'checklist',
    limit: 1,
    cursor: first.json.next_cursor,
  })
  assert.equal(other.status, 400)
  assert.equal(
    (await search('alice-key', { query: 'heliotrope', limit: 1, cursor: first.json.next_cursor }))
      .status,
    400,
  )
})

test('responses fit max_tokens, and a budget-cut page resumes exactly where it stopped', async () => {
  const unlimited = (
    await search('bob-key', { query: 'heliotrope', limit: 50, max_tokens: 20_000 })
  ).json.results.map((hit: { id: string }) => hit.id)
  for (const maxTokens of [700, 1000, 1500]) {
    const pages = await searchAll(t.app, tokenOf(ws, 'bob-key'), {
      query: 'heliotrope',
      limit: 50,
      max_tokens: maxTokens,
    })
    assert.deepEqual(
      pages.map((hit) => hit.id),
      unlimited,
      `budget ${maxTokens}`,
    )
  }
  const reply = await search('bob-key', { query: 'heliotrope', max_tokens: 800 })
  assert.ok(countTokens(reply.body) <= 800)
  assert.ok(
    reply.json.results.length < 7 && reply.json.next_cursor,
    'the budget, not the limit, ended the page',
  )
  assert.deepEqual(Object.keys(reply.json.budget), ['max_tokens', 'used_tokens', 'encoding'])
  assert.equal(reply.json.budget.encoding, 'o200k_base')
})

test('a hit too long for the budget is cut at a sentence boundary and marked; too small a budget is a 422', async () => {
  const reply = await search('bob-key', { query: 'rollout', types: ['canvas'], max_tokens: 600 })
  assert.equal(reply.status, 200, reply.body)
  const [hit] = reply.json.results
  assert.equal(hit.truncated, true)
  assert.match(hit.summary, /\.…$/)
  assert.ok(LONG_SUMMARY.startsWith(hit.summary.slice(0, -1)))
  assert.ok(countTokens(reply.body) <= 600)
  const tiny = await search('bob-key', { query: 'rollout', max_tokens: 100 })
  assert.equal(tiny.status, 422)
  assert.match(tiny.json.errors[0].message, /at least \d+/)
})

test('a citation locates its snippet in the field, in code points, at the version cited', async () => {
  const reply = await search('bob-key', { query: 'zanzibar', types: ['canvas'] })
  const hit = reply.json.results.find((each: { title: string }) => each.title === 'Rollout notes')
  assert.equal(hit.citation.field, 'summary')
  assert.equal(hit.citation.updated_at, hit.updated_at)
  const { start, end } = hit.citation.range
  assert.ok(start > 0, 'the snippet is from the middle of the summary')
  const cited = Array.from(LONG_SUMMARY).slice(start, end).join('')
  assert.equal(cited, hit.snippet.replace(/…$/, ''))
  const activity = await search('bob-key', { query: 'created', types: ['activity'] })
  assert.equal(activity.json.results[0].citation.range, null, 'composed text has no range')
})

test('activity is searched by its own text, and only where its subject is visible', async () => {
  const reply = await search('bob-key', { query: 'created', types: ['activity'], limit: 50 })
  assert.ok(reply.json.results.length > 0)
  for (const hit of reply.json.results) {
    assert.equal(hit.type, 'activity')
    assert.match(hit.title, /created: /)
    assert.ok(!hit.title.includes('Secret') && !hit.title.includes('Heliotrope budget'))
  }
})

test('the candidate window ranks only the most recent matches of a very common term', async () => {
  const { visibility } = await (async () => {
    const reply = await client(t.app, tokenOf(ws, 'bob-key')).get('/v1/workspace')
    assert.equal(reply.status, 200)
    const { resolvePrincipal } = await import('../../src/access/principal.ts')
    const { visibilityFor } = await import('../../src/access/visibility.ts')
    const principal = await resolvePrincipal(t.db.db, {
      workspaceId: ws.workspace_id,
      actorId: ws.ids.bob as string,
      actorKind: 'person',
      role: 'member',
    })
    return { visibility: visibilityFor(principal) }
  })()
  const rows = await searchIndex(t.db.db, visibility, {
    question: parseQuestion('heliotrope', new Date()),
    filters: {},
    types: ['task'],
    readableKinds: ['task'],
    after: null,
    limit: 10,
    window: 2,
  })
  assert.deepEqual(rows.map((row) => row.title).sort(), ['Checklist', 'Heliotrope review'])
})

test(`${fuzzRuns(2000)} odd queries never produce a 5xx`, async () => {
  const api = client(t.app, tokenOf(ws, 'bob-key'))
  const odd = fc.oneof(
    fc.string({ minLength: 1, maxLength: 500 }),
    fc.string({ unit: 'binary', minLength: 1, maxLength: 200 }),
    fc.constantFrom(
      '"',
      '""',
      '"unterminated',
      '-',
      '--x',
      'or',
      'OR OR',
      '!',
      '&|<->',
      ':*',
      "'",
      '\\',
      '\u0000',
      '\u0000x',
      '((((',
      '😀🙂',
      '東京',
      'naïve café',
      ' ',
      '\t\n',
      'a'.repeat(500),
      '<|endoftext|>',
      '%00',
      'x:*A',
      '!(a|b)',
    ),
    fc
      .array(
        fc.constantFrom('heliotrope', '"', '-', 'or', '(', ')', '!', '&', '|', ':', '*', ' '),
        { minLength: 1, maxLength: 60 },
      )
      .map((parts) => parts.join('')),
  )
  await fc.assert(
    fc.asyncProperty(odd, fc.integer({ min: 1, max: 50 }), async (query, limit) => {
      const reply = await api.post('/v1/search', { query, limit })
      assert.ok(reply.status < 500, `${JSON.stringify(query)} → ${reply.status} ${reply.body}`)
      if (reply.status === 200) assert.ok(Array.isArray(reply.json.results))
      else assert.equal(reply.status, 422, `${JSON.stringify(query)} → ${reply.body}`)
    }),
    { numRuns: fuzzRuns(2000) },
  )
})

test('search needs the read scope of a searchable kind; people:read searches people and teams', async () => {
  const bundle = smallBundle({
    workspace: { key: 'nosearch', name: 'No search' },
    api_keys: [
      { key: 'workspace', person: 'alice', scopes: ['workspace:read'] },
      { key: 'people', person: 'alice', scopes: ['people:read'] },
    ],
  })
  const other = await importOk(t.db.db, bundle)
  const reply = await client(t.app, tokenOf(other, 'workspace')).post('/v1/search', {
    query: 'anything',
  })
  assert.equal(reply.status, 403)
  assert.ok(ALL_READ_SCOPES.length > 0)
  const people = await client(t.app, tokenOf(other, 'people')).post('/v1/search', {
    query: 'bob member',
  })
  assert.equal(people.status, 200, people.body)
  // Any word matches ("member" is a role too); the whole name ranks first.
  const first = people.json.results[0]
  assert.deepEqual(
    [first.type, first.title, first.citation.field],
    ['person', 'Bob Member', 'title'],
  )
  const team = await client(t.app, tokenOf(other, 'people')).post('/v1/search', {
    query: 'engineering team',
  })
  assert.equal(team.json.results[0].type, 'team')
  assert.equal(team.json.results[0].title, 'Engineering')
  assert.equal(team.json.results[0].snippet, 'Team')
})

test('a question whose interpretation alone exceeds max_tokens is a 422 that names what fits', async () => {
  const query = Array.from({ length: 60 }, (_, i) => `zq${i}`).join(' ')
  const tiny = await search('bob-key', { query, max_tokens: 100 })
  assert.equal(tiny.status, 422, tiny.body)
  const needed = Number(/at least (\d+)/.exec(tiny.json.errors[0].message)?.[1])
  const fits = await search('bob-key', { query, max_tokens: needed })
  assert.equal(fits.status, 200, fits.body)
  assert.ok(countTokens(fits.body) <= needed)
  assert.equal(fits.json.interpreted.words.length, 12, 'at most 12 words are searched')
})

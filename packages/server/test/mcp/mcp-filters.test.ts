import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { demoBundle } from '../../src/bundle/demo/demo-bundle.ts'
import type { ImportResult } from '../../src/bundle/import-bundle.ts'
import { ManualClock } from '../../src/lib/clock.ts'
import { countTokens } from '../../src/lib/token-budget.ts'
import { importOk, smallBundle, tokenOf } from '../harness/bundles.ts'
import type { CalledTool } from '../harness/mcp-clients.ts'
import { callToolInProcess } from '../harness/mcp-inject.ts'
import { client, startTestApp, type TestApp } from '../harness/test-app.ts'

// Every filter of REST's search and lists is an argument of MCP's `search` and `list`, by the same
// name, answered by the same query (docs/mcp.md, "Tools"); and list rows are compact ("Results").

const TODAY = '2026-11-22'
const text = (result: CalledTool) => result.content.map((part) => part.text ?? '').join('\n')
const ids = (items: unknown) => (items as { id: string }[]).map((item) => item.id)

let demo: TestApp
let demoWs: ImportResult
let small: TestApp
let smallWs: ImportResult
before(async () => {
  demo = await startTestApp({ clock: new ManualClock(`${TODAY}T12:00:00.000Z`) })
  demoWs = await importOk(demo.db.db, demoBundle({ today: TODAY }), {
    now: new Date(`${TODAY}T12:00:00.000Z`),
  })
  small = await startTestApp()
  smallWs = await importOk(small.db.db, smallBundle())
})
after(async () => {
  await demo.close()
  await small.close()
})

describe('list takes the filters of the /v1 lists', () => {
  const token = () => tokenOf(demoWs, 'ada-key')
  const same = async (type: string, args: Record<string, unknown>, path: string) => {
    const tool = await callToolInProcess(demo.app, token(), 'list', {
      type,
      limit: 50,
      max_tokens: 20_000,
      ...args,
    })
    assert.equal(tool.isError, undefined, text(tool))
    const rest = await client(demo.app, token()).get(
      `${path}${path.includes('?') ? '&' : '?'}limit=50`,
    )
    assert.equal(rest.status, 200, rest.body)
    assert.deepEqual(ids(tool.structuredContent?.items), ids(rest.json.data), `${type} ${path}`)
    return ids(rest.json.data)
  }

  test('tasks by due dates, assignee (me) and status; OKRs by session', async () => {
    const due = await same(
      'task',
      { due_after: '2026-11-20', due_before: '2026-11-30' },
      '/v1/tasks?due_after=2026-11-20&due_before=2026-11-30',
    )
    assert.ok(due.length > 0)
    await same(
      'task',
      { assignee_id: 'me', status: ['todo', 'blocked'] },
      '/v1/tasks?assignee_id=me&status=todo&status=blocked',
    )
    assert.ok((await same('okr', { session: '2026-Q4' }, '/v1/okrs?session=2026-Q4')).length > 0)
    assert.deepEqual(await same('okr', { session: '1999-Q1' }, '/v1/okrs?session=1999-Q1'), [])
  })

  test('a filter the type does not have is refused, and `me` from an integration as REST does', async () => {
    const okr = await callToolInProcess(demo.app, token(), 'list', {
      type: 'okr',
      due_before: '2026-12-01',
    })
    assert.equal(okr.isError, true)
    assert.match(text(okr), /422 validation_failed[\s\S]*\/due_before: does not apply to okr/)
    const bot = tokenOf(demoWs, 'release-bot-token')
    const rest = await client(demo.app, bot).get('/v1/tasks?assignee_id=me')
    const tool = await callToolInProcess(demo.app, bot, 'list', { type: 'task', assignee_id: 'me' })
    assert.equal(rest.status, 422, rest.body)
    assert.equal(tool.isError, true)
    // The same problem, its backticks escaped as every answer escapes Markdown.
    assert.equal(
      text(tool),
      `Error 422 validation_failed: ${rest.json.detail.replaceAll('`', '\\`')}\n- /assignee_id: ${rest.json.errors[0].message.replaceAll('`', '\\`')}`,
    )
  })
})

describe('search takes every filter of POST /v1/search', () => {
  const token = () => tokenOf(demoWs, 'ada-key')
  const same = async (query: string, filters: Record<string, unknown>) => {
    const body = { query, filters, limit: 20, max_tokens: 20_000 }
    const tool = await callToolInProcess(demo.app, token(), 'search', body)
    assert.equal(tool.isError, undefined, text(tool))
    const rest = await client(demo.app, token()).post('/v1/search', body)
    assert.equal(rest.status, 200, rest.body)
    const found = ids(rest.json.results)
    assert.deepEqual(ids(tool.structuredContent?.results), found, JSON.stringify(filters))
    return found
  }

  test('completed, updated and created dates, health, team by name or id, author, unassigned, undated', async () => {
    const team = (await client(demo.app, token()).get('/v1/teams?limit=50')).json.data.find(
      (t: { name: string }) => t.name === 'Design',
    )
    const task = (await client(demo.app, token()).get('/v1/tasks?limit=50')).json.data[0]
    const cases: [string, Record<string, unknown>][] = [
      ['tasks', { completed_after: '2026-11-01', completed_before: '2026-11-22' }],
      ['anything', { updated_after: '2026-11-15', updated_before: '2026-11-22T12:00:00Z' }],
      ['anything', { created_after: '2026-11-01', created_before: '2026-11-22T12:00:00Z' }],
      ['objectives', { health: ['at_risk', 'off_track'] }],
      ['objectives', { health: 'on_track' }],
      ['work', { team: 'Design' }],
      ['work', { team: team.id }],
      ['anything', { created_by: 'me' }],
      ['comments', { on: task.id }],
      ['tasks', { assignee: 'none' }],
      ['tasks', { due: 'none' }],
      ['tasks', { assignee: 'me', status: 'todo' }],
      ['projects', { member: 'me' }],
      ['anything', { owner: 'me' }],
    ]
    let nonEmpty = 0
    for (const [query, filters] of cases) if ((await same(query, filters)).length > 0) nonEmpty++
    assert.ok(nonEmpty >= cases.length - 2, `${nonEmpty} of ${cases.length} found something`)
    // By name and by id alike.
    assert.deepEqual(await same('work', { team: 'Design' }), await same('work', { team: team.id }))
  })
})

describe('a filter naming what the caller cannot see answers as an unknown one', () => {
  const guest = () => tokenOf(smallWs, 'gus-key')
  const id = (key: string) => smallWs.ids[key] as string

  test('list: a hidden team or project is the unknown id’s 404, word for word', async () => {
    const teams = (await client(small.app, guest()).get('/v1/teams')).json.data
    assert.ok(!ids(teams).includes(id('eng')), 'the guest does not see Engineering')
    for (const [type, name, hidden, unknown] of [
      ['okr', 'team_id', id('eng'), 'team_00000000000000000000000000'],
      ['person', 'team_id', id('eng'), 'team_00000000000000000000000000'],
      ['canvas', 'project_id', id('secret'), 'prj_00000000000000000000000000'],
      ['okr', 'project_id', id('secret'), 'prj_00000000000000000000000000'],
    ] as const) {
      const seen = await callToolInProcess(small.app, guest(), 'list', { type, [name]: hidden })
      const none = await callToolInProcess(small.app, guest(), 'list', { type, [name]: unknown })
      assert.equal(seen.isError, true, text(seen))
      assert.match(text(seen), /^Error 404 /)
      assert.equal(text(seen).replace(hidden, unknown), text(none), `${type} ${name}`)
    }
  })

  test('search: a hidden team by name or id, a hidden thing commented on, find nothing', async () => {
    const pairs: [Record<string, string>, Record<string, string>][] = [
      [{ team: 'Engineering' }, { team: 'Nobody at all' }],
      [{ team: id('eng') }, { team: 'team_00000000000000000000000000' }],
      [{ on: id('t-secret') }, { on: 'tsk_00000000000000000000000000' }],
      [{ project_id: id('secret') }, { project_id: 'prj_00000000000000000000000000' }],
    ]
    for (const [hidden, unknown] of pairs) {
      const answers = []
      for (const filters of [hidden, unknown]) {
        const body = { query: 'anything', filters }
        const tool = await callToolInProcess(small.app, guest(), 'search', body)
        const rest = await client(small.app, guest()).post('/v1/search', body)
        assert.equal(rest.status, 200, rest.body)
        assert.deepEqual(tool.structuredContent?.results, [], JSON.stringify(filters))
        assert.deepEqual(rest.json.results, [])
        answers.push(text(tool).replace(Object.values(filters)[0] as string, '…'))
      }
      assert.equal(answers[0], answers[1])
    }
  })
})

test('list rows of the demo workspace take at most 60 tokens each', async () => {
  const token = tokenOf(demoWs, 'ada-key')
  let rows = 0
  for (const args of [
    { type: 'task' },
    { type: 'task', assignee_id: 'me' },
    { type: 'task', status: ['blocked'] },
    { type: 'project' },
    { type: 'okr' },
    { type: 'person' },
    { type: 'team' },
    { type: 'canvas' },
  ]) {
    const result = await callToolInProcess(demo.app, token, 'list', {
      ...args,
      limit: 50,
      max_tokens: 20_000,
    })
    assert.equal(result.isError, undefined, text(result))
    const items = result.structuredContent?.items as { id: string }[]
    const lines = text(result).split('\n')
    for (const [i, item] of items.entries()) {
      const row = lines.find((line) => line.startsWith(`[${i + 1}] `)) ?? ''
      // Cited by its id, which fetch takes; the page is said once, above the rows.
      assert.ok(row.includes(item.id), row)
      assert.ok(!row.includes('http'), row)
      assert.ok(countTokens(row) <= 60, `${countTokens(row)} tokens: ${row}`)
      rows++
    }
  }
  assert.ok(rows > 100, `${rows} rows`)
})

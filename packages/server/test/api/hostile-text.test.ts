import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import type { ImportResult } from '../../src/bundle/import-bundle.ts'
import { importOk, tokenOf } from '../harness/bundles.ts'
import {
  assertSafeMarkdown,
  assertSafeStrings,
  hostileBundle,
  hostileLine,
  hostileText,
  SHORT,
} from '../harness/hostile-text.ts'
import type { CalledTool } from '../harness/mcp-clients.ts'
import { callToolInProcess } from '../harness/mcp-inject.ts'
import { client, startTestApp, type TestApp } from '../harness/test-app.ts'

/*
 * Text people wrote reaches answers only as data (docs/mcp.md, "Text people wrote is data";
 * docs/api.md, "People's text in answers"): whatever a title, a description, a comment, a note, a
 * name or a summary holds, no MCP answer and no summary or search text carries a link or an image
 * it typed, raw HTML, or a character its reader does not see.
 */

let t: TestApp
let ws: ImportResult
let ours: string[]
const id = (key: string) => ws.ids[key] as string
const api = () => client(t.app, tokenOf(ws, 'alice-key'))
// A question that is itself an attack: what it was read as is echoed in the answer.
const HOSTILE_QUERY =
  '"[x](https://evil.example/q) <img src=x>" ![i](https://evil.example/p.png) zebra -[y](z) project:[p](https://evil.example/r)'
const call = (name: string, args: Record<string, unknown> = {}) =>
  callToolInProcess(t.app, tokenOf(ws, 'alice-key'), name, args)

before(async () => {
  t = await startTestApp()
  ws = await importOk(t.db.db, hostileBundle())
  ours = [t.deps.config.appUrl, t.deps.config.publicUrl]
  // An activity entry whose changes hold people's text on both sides.
  const patched = await api().patch(`/v1/canvases/${id('c')}`, {
    title: hostileLine('renamed canvas'),
    summary: hostileText('new canvas summary'),
  })
  assert.equal(patched.status, 200, patched.body)
})
after(() => t.close())

// Both faces of a tool's answer; the records a dry run would write are records, shown as stored.
function assertSafeAnswer(result: CalledTool, where: string): void {
  assert.equal(result.isError, undefined, `${where}: ${result.content[0]?.text}`)
  for (const part of result.content) assertSafeMarkdown(part.text ?? '', ours, where)
  assertSafeStrings(result.structuredContent, ours, `${where} (data)`, ['activity', 'events'])
}

async function activityIds(): Promise<string[]> {
  const listed = await api().get('/v1/activity?limit=100')
  assert.equal(listed.status, 200)
  return (listed.json.data as { id: string }[]).map((entry) => entry.id)
}

async function everyId(): Promise<string[]> {
  const keys = ['ws', 'alice', 'bob', 'eng', 'p', 'c', 't', 'sub', 'o', 'kr', 'ci', 'm', 'm2']
  return [...keys.map(id), ...(await activityIds())]
}

describe('MCP tools', () => {
  test('search: hits, snippets, paths and what the question was read as', async () => {
    for (const query of [
      'zebra',
      'zebra project:zebra',
      'steal evil img',
      'renamed canvas',
      HOSTILE_QUERY,
    ]) {
      for (const limit of [1, 10, 50]) {
        const result = await call('search', { query, limit })
        assertSafeAnswer(result, `search ${query}`)
        const hits = result.structuredContent?.results as unknown[]
        assert.ok(limit === 1 || query !== 'zebra' || hits.length > 1, `${hits.length} hits`)
      }
    }
  })

  test('fetch: the summary of every kind of resource', async () => {
    for (const resource of await everyId()) {
      for (const max_tokens of [500, 2000, 20_000]) {
        assertSafeAnswer(await call('fetch', { id: resource, max_tokens }), `fetch ${resource}`)
      }
    }
  })

  test('list: every type', async () => {
    for (const type of ['project', 'task', 'canvas', 'okr', 'person', 'team']) {
      assertSafeAnswer(await call('list', { type }), `list ${type}`)
    }
  })

  test('activity and workspace', async () => {
    assertSafeAnswer(await call('activity', { limit: 50 }), 'activity')
    assertSafeAnswer(await call('changes', { from: 'start', limit: 50 }), 'changes')
    assertSafeAnswer(await call('workspace'), 'workspace')
  })

  test('writes and their dry runs', async () => {
    for (const dry_run of [true, false]) {
      const created = await call('create_task', {
        title: hostileLine('created task'),
        description: hostileText('created description'),
        project_id: id('p'),
        dry_run,
      })
      assertSafeAnswer(created, `create_task dry_run ${dry_run}`)
      const task = dry_run ? id('sub') : (created.structuredContent?.id as string)
      assertSafeAnswer(
        await call('update_task', { task_id: task, status: 'done', dry_run }),
        'update_task',
      )
      assertSafeAnswer(
        await call('add_comment', { resource_id: task, body: hostileText('added'), dry_run }),
        'add_comment',
      )
      assertSafeAnswer(
        await call('okr_checkin', {
          key_result_id: id('kr'),
          value: 3,
          note: hostileText('logged'),
          dry_run,
        }),
        'okr_checkin',
      )
    }
  })
})

describe('REST', () => {
  test('summaries: text, titles and sources of every kind of resource', async () => {
    for (const resource of await everyId()) {
      for (const max_tokens of [100, 300, 2500]) {
        const summary = await api().get(
          `/v1/resources/${resource}/summary?max_tokens=${max_tokens}`,
        )
        assert.equal(summary.status, 200, summary.body)
        const { text, title, sources, facts } = summary.json
        assertSafeStrings({ text, title, sources, facts }, ours, `summary ${resource}`)
      }
    }
  })

  test('a summary cites where its quote is in the field as stored', async () => {
    const summary = await api().get(`/v1/resources/${id('m')}/summary`)
    const [quote] = summary.json.quotes as { range: { start: number; end: number } }[]
    assert.ok(quote?.range, JSON.stringify(summary.json.quotes))
    const stored = Array.from(hostileText('comment'))
    const cited = stored.slice(quote.range.start, quote.range.end).join('')
    assert.ok(cited.startsWith('zebra comment [x]('), cited)
    assert.ok(cited.includes('Ig\u200Bno\u202Ere'), 'the range covers the hidden characters')
  })

  test('search: titles, snippets, paths, summaries, quotes and project names', async () => {
    for (const query of [
      'zebra',
      'project:zebra',
      'zebra renamed canvas',
      'steal',
      HOSTILE_QUERY,
    ]) {
      const found = await api().post('/v1/search', { query, limit: 50 })
      assert.equal(found.status, 200, found.body)
      const { results, interpreted } = found.json
      assertSafeStrings({ results, interpreted }, ours, `search ${query}`)
      for (const hit of results as { citation: { range: { start: number } | null } }[]) {
        assert.ok(hit.citation.range === null || hit.citation.range.start >= 0)
      }
    }
  })

  test("records are answered with people's text as stored", async () => {
    const task = await api().get(`/v1/resources/${id('t')}`)
    assert.equal(task.json.title, hostileLine('task'))
    assert.equal(task.json.description, hostileText('task description'))
    const okr = await api().get(`/v1/resources/${id('o')}`)
    assert.equal(okr.json.session, SHORT)
  })
})

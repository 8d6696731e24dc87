import type { FastifyInstance } from 'fastify'
import { sql } from 'kysely'
import type { ImportResult } from '../../src/bundle/import-bundle.ts'
import type { Db } from '../../src/db/database.ts'
import { client } from './test-app.ts'
import { VOCABULARY } from './world-arbitrary.ts'

const ID = /\b(wsp|usr|team|itg|prj|cnv|tsk|obj|kr|chk|cmt|act)_[0-9a-z]{26}\b/g

/**
 * Everything one principal can read, as one string with every id replaced by its bundle key (or,
 * for activity, by what it records): lists, records, links, comments, summaries, activity and a
 * search for every word. Two worlds that differ only in what this principal cannot see must give
 * equal snapshots.
 */
export async function snapshotFor(
  app: FastifyInstance,
  db: Db,
  result: ImportResult,
  who: string,
  keys: string[],
): Promise<string> {
  const names = new Map(Object.entries(result.ids).map(([key, id]) => [id, key]))
  names.set(result.workspace_id, 'WORKSPACE')
  const activity = await sql<{
    id: string
    verb: string
    subject_id: string
    object_id: string | null
    created_at: Date
  }>`
    select id, verb, subject_id, object_id, created_at from activity where workspace_id = ${result.workspace_id}`.execute(
    db,
  )
  for (const a of activity.rows)
    names.set(
      a.id,
      `activity(${a.verb},${names.get(a.subject_id)},${a.object_id ? names.get(a.object_id) : ''},${a.created_at.toISOString()})`,
    )
  const api = client(app, result.api_keys[`${who}-key`]?.token)
  const parts: unknown[] = []
  const add = (label: string, json: unknown) => parts.push([label, json])
  for (const list of [
    '/v1/me',
    '/v1/workspace',
    '/v1/projects',
    '/v1/canvases',
    '/v1/tasks',
    '/v1/okrs',
    '/v1/people',
    '/v1/teams',
    '/v1/activity',
  ]) {
    const whole = list === '/v1/workspace' || list === '/v1/me'
    add(list, (await api.get(`${list}${whole ? '' : '?limit=100'}`)).json)
  }
  for (const key of keys) {
    const id = result.ids[key]
    for (const suffix of [
      '',
      '/links?limit=100',
      '/comments?limit=100',
      '/summary?max_tokens=4000',
    ])
      add(`${key}${suffix}`, (await api.get(`/v1/resources/${id}${suffix}`)).json)
  }
  // Every word, and a typo of each long one (its second letter left out): near misses too.
  const typos = VOCABULARY.filter((word) => word.length > 5).map((w) => `${w[0]}${w.slice(2)}`)
  for (const word of [...VOCABULARY, ...typos])
    add(
      `search ${word}`,
      (await api.post('/v1/search', { query: word, limit: 50, max_tokens: 20_000 })).json,
    )
  // Questions whose words are filters: kinds, an objective's health, times of completing and of
  // change, what the person is on or owns, what is late, comments on a thing named by its title. What they filter by is computed from what the person may open, and only that.
  for (const query of [
    'which OKRs are off track',
    'objectives at risk',
    'okrs behind',
    'canvases',
    'comments about zorb',
    'people',
    'teams',
    'done last week',
    'changed since Monday',
    'people team:"Team 0"',
    'tasks team:"Team 1"',
    "Person 1's tasks",
    'tasks assigned to Person 2',
    'assignee:"Person 0"',
    'which projects am I on',
    'my OKRs',
    'my canvases',
    "what's on my plate",
    'tasks that slipped past their due date',
    'anything due tomorow',
    'any discussion on zorb',
    'comments on the zorb task',
  ])
    add(
      `search ${query}`,
      (await api.post('/v1/search', { query, limit: 50, max_tokens: 20_000 })).json,
    )
  // Filters given exactly, people, teams and projects by name (docs/api.md, "Names for ids"): a
  // name is read among what the person may see, so hidden namesakes change nothing, not even
  // whether a name is ambiguous.
  for (const filters of [
    { assignee: 'Person 1' },
    { assignee: 'Person' },
    { assignee: 'none' },
    { due: 'none' },
    { created_by: 'Person 0' },
    { member: 'Person 2' },
    { owner: 'Person 0' },
    { team: 'Team 0' },
    { project_id: 'Project 0' },
    { health: ['off_track', 'at_risk'] },
    { completed_after: '2026-01-01' },
  ])
    add(
      `search ${JSON.stringify(filters)}`,
      (await api.post('/v1/search', { query: 'tasks', filters, limit: 50, max_tokens: 20_000 }))
        .json,
    )
  for (const query of ['assignee_id=Person%201', 'assignee_id=me', 'project_id=Project%201'])
    add(`tasks ${query}`, (await api.get(`/v1/tasks?${query}&limit=100`)).json)
  // The two worlds' workspace ids differ (and tokenize differently): token counts are left out.
  const text = JSON.stringify(parts, (name, value) => {
    if (name === 'request_id' || name === 'used_tokens') return null
    return name === 'next_cursor' || name === 'cursor' ? value !== null : value
  })
  return text.replace(ID, (id) => names.get(id) ?? 'UNKNOWN')
}

/** Where two snapshots first differ, with some context, for a readable failure. */
export function firstDifference(a: string, b: string): string {
  let i = 0
  while (i < a.length && i < b.length && a[i] === b[i]) i++
  return `at ${i}:\n  without extras: …${a.slice(Math.max(0, i - 300), i + 200)}\n  with extras:    …${b.slice(Math.max(0, i - 300), i + 200)}`
}

import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import fc from 'fast-check'
import type { Bundle } from '../../src/bundle/bundle.schema.ts'
import { ALL_READ_SCOPES, importOk } from '../harness/bundles.ts'
import { searchAll } from '../harness/check-search.ts'
import { markBundle, markersIn, typeOfKey, typesOfScopes } from '../harness/marked-world.ts'
import { callToolInProcess, toolNamesInProcess } from '../harness/mcp-inject.ts'
import { World } from '../harness/oracle.ts'
import { PROPERTY_RUNS, PROPERTY_SETTINGS } from '../harness/property-settings.ts'
import { allPages, client, startTestApp, type TestApp } from '../harness/test-app.ts'
import { worldArbitrary } from '../harness/world-arbitrary.ts'

// Tokens with random read scopes, on random workspaces: nothing any answer names (a title, a
// name, a path, a snippet) may belong to a resource the owner cannot open, or to a type the
// token may not read. Every name in the world carries a marker, so an answer is checked by its
// text alone, whatever field the name turns up in.

let t: TestApp
before(async () => {
  t = await startTestApp()
})
after(() => t.close())

const SCOPE_SETS = fc.subarray(ALL_READ_SCOPES, { minLength: 1 })
// Words that every title of a kind starts with, so search reaches every item, and activity verbs.
const QUERIES = ['project', 'canvas', 'task', 'objective', 'result', 'comment', 'created']

test('search, records, links, summaries and activity name only what the token may read and open', async () => {
  await fc.assert(
    fc.asyncProperty(
      worldArbitrary('s'),
      fc.array(SCOPE_SETS, { minLength: 12, maxLength: 12 }),
      async (plain, scopeSets) => {
        const { bundle, markers } = markBundle(plain)
        const narrow = narrowTokens(bundle, scopeSets)
        const result = await importOk(t.db.db, narrow.bundle)
        const world = new World(bundle)
        for (const [who, scopes] of narrow.scopes) {
          const token = (
            result.api_keys[`${who}-narrow`] ?? result.workspace_tokens[`${who}-narrow`]
          )?.token as string
          const readable = typesOfScopes(scopes)
          const answers = await everythingSeenBy(token, readable, world, result.ids)
          for (const [where, body] of answers) {
            for (const marker of markersIn(body)) {
              const key = markers.get(marker) as string
              assert.ok(world.canOpen(who, key), `${who} sees hidden ${key} in ${where}`)
              assert.ok(
                readable.has(typeOfKey(world, key)),
                `${who} with ${scopes.join(' ')} sees ${typeOfKey(world, key)} ${key} in ${where}: ${body}`,
              )
            }
          }
        }
      },
    ),
    { numRuns: PROPERTY_RUNS, ...PROPERTY_SETTINGS },
  )
})

// Every principal gets a second token with one of the random scope sets.
function narrowTokens(bundle: Bundle, scopeSets: string[][]) {
  const scopes = new Map<string, string[]>()
  const pick = (i: number) => scopeSets[i % scopeSets.length] as string[]
  const apiKeys = bundle.people.map((person, i) => {
    scopes.set(person.key, pick(i))
    return { key: `${person.key}-narrow`, person: person.key, scopes: pick(i) }
  })
  const workspaceTokens = (bundle.integrations ?? []).map((integration, i) => {
    scopes.set(integration.key, pick(bundle.people.length + i))
    return {
      key: `${integration.key}-narrow`,
      integration: integration.key,
      scopes: pick(bundle.people.length + i),
    }
  })
  return {
    bundle: {
      ...bundle,
      api_keys: [...(bundle.api_keys ?? []), ...apiKeys],
      workspace_tokens: [...(bundle.workspace_tokens ?? []), ...workspaceTokens],
    },
    scopes,
  }
}

// Every answer the token can get about the world: searches of every readable type, and the
// record, links and summary of everything it may open and read, and the activity stream.
async function everythingSeenBy(
  token: string,
  readable: Set<string>,
  world: World,
  ids: Record<string, string>,
): Promise<[string, string][]> {
  const api = client(t.app, token)
  const answers: [string, string][] = []
  const searchable = ['project', 'canvas', 'task', 'okr', 'comment', 'activity'].filter((type) =>
    readable.has(type),
  )
  if (searchable.length > 0) {
    for (const query of QUERIES) {
      const hits = await searchAll(t.app, token, { query, limit: 50, max_tokens: 20_000 })
      answers.push([`search "${query}"`, JSON.stringify(hits)])
    }
  }
  if (readable.has('activity'))
    answers.push(['activity', JSON.stringify(await allPages(api, '/v1/activity', 100))])
  // What needs attention, for the workspace, the token's owner and every person, project and
  // team, open or hidden: a refusal names nothing either.
  if (['task', 'okr', 'activity'].some((type) => readable.has(type))) {
    const keyed = world.allKeys().map((key) => ids[key] as string)
    const foci = ['workspace', 'me', ...keyed.filter((id) => /^(usr|team|prj)_/.test(id))]
    for (const focus of foci) {
      const reply = await api.get(
        `/v1/attention?for=${focus}&since=2000-01-01T00:00:00Z&limit=20&max_tokens=20000`,
      )
      answers.push([`attention for ${focus}`, reply.body])
    }
  }
  for (const key of world.allKeys()) {
    const id = ids[key] as string
    const record = await api.get(`/v1/resources/${id}`)
    if (record.status !== 200) continue
    answers.push([`record of ${key}`, record.body])
    answers.push([
      `links of ${key}`,
      JSON.stringify(await allPages(api, `/v1/resources/${id}/links`, 100)),
    ])
    const summary = await api.get(`/v1/resources/${id}/summary?max_tokens=4000`)
    if (summary.status === 200) answers.push([`summary of ${key}`, summary.body])
  }
  answers.push(
    ...(await everythingMcpShows(
      token,
      world.allKeys().map((key) => ids[key] as string),
    )),
  )
  return answers
}

const LIST_TYPES = ['project', 'task', 'canvas', 'okr', 'person', 'team']

// Every MCP read tool's answers (Markdown and data alike) for the token: every page of every list
// and search, and every id fetched, alone and in lists.
async function everythingMcpShows(token: string, ids: string[]): Promise<[string, string][]> {
  const answers: [string, string][] = []
  const offered = new Set(await toolNamesInProcess(t.app, token))
  const call = async (name: string, args: Record<string, unknown>) => {
    const result = await callToolInProcess(t.app, token, name, args)
    answers.push([`mcp ${name} ${JSON.stringify(args)}`, JSON.stringify(result)])
    return result
  }
  if (offered.has('workspace')) {
    await call('workspace', {})
    await call('workspace', { for: 'workspace', since: '2000-01-01T00:00:00Z', max_tokens: 20_000 })
  }
  for (const type of offered.has('list') ? LIST_TYPES : []) {
    let cursor: string | undefined
    do {
      const page = await call('list', { type, limit: 50, ...(cursor ? { cursor } : {}) })
      cursor = (page.structuredContent?.next_cursor as string | null | undefined) ?? undefined
    } while (cursor)
  }
  if (offered.has('activity')) await call('activity', { limit: 50, max_tokens: 20_000 })
  if (offered.has('changes'))
    await call('changes', { from: 'start', limit: 50, max_tokens: 20_000 })
  for (const query of offered.has('search') ? QUERIES : []) {
    let cursor: string | undefined
    do {
      const page = await call('search', {
        query,
        limit: 50,
        max_tokens: 20_000,
        ...(cursor ? { cursor } : {}),
      })
      cursor = (page.structuredContent?.next_cursor as string | null | undefined) ?? undefined
    } while (cursor)
  }
  // Every id, whether the token may open it or not: a refusal names nothing either.
  for (const id of offered.has('fetch') ? ids : []) await call('fetch', { id, max_tokens: 4000 })
  // And in lists of five, open and hidden ids mixed: the list names nothing a single call hides.
  for (let at = 0; offered.has('fetch') && at < ids.length; at += 5)
    await call('fetch', { id: ids.slice(at, at + 5), max_tokens: 20_000 })
  return answers
}

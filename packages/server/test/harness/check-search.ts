import assert from 'node:assert/strict'
import type { FastifyInstance } from 'fastify'
import type { ImportResult } from '../../src/bundle/import-bundle.ts'
import { countTokens } from '../../src/lib/token-budget.ts'
import type { World } from './oracle.ts'
import { client } from './test-app.ts'
import { VOCABULARY } from './world-arbitrary.ts'

// biome-ignore lint/suspicious/noExplicitAny: responses are checked field by field
type Json = any

/** Every page of a search, following next_cursor; checks each page's budget and that no page is short. */
export async function searchAll(
  app: FastifyInstance,
  token: string,
  body: Record<string, unknown>,
): Promise<Json[]> {
  const api = client(app, token)
  const hits: Json[] = []
  let cursor: string | null = null
  for (let page = 0; page < 1000; page++) {
    const reply = await api.post('/v1/search', { ...body, ...(cursor ? { cursor } : {}) })
    assert.equal(reply.status, 200, reply.body)
    assert.ok(countTokens(reply.body) <= (body.max_tokens as number), 'within max_tokens')
    assert.equal(reply.json.budget.used_tokens, countTokens(reply.body), 'used_tokens is exact')
    hits.push(...reply.json.results)
    cursor = reply.json.next_cursor
    if (cursor === null) return hits
    assert.ok(reply.json.results.length > 0, 'progress on every page')
  }
  throw new Error('too many pages')
}

/**
 * For every principal and every word of the vocabulary, search (paged to the end, at page sizes
 * 1 and 50) returns exactly the items the oracle says it may open whose own text has the word, or
 * whose project it may open has it.
 */
export async function checkSearch(
  app: FastifyInstance,
  world: World,
  result: ImportResult,
  pageSizes = [1, 50],
): Promise<void> {
  const keyOf = new Map(Object.entries(result.ids).map(([key, id]) => [id, key]))
  const tokens = { ...result.api_keys, ...result.workspace_tokens }
  for (const who of world.viewers()) {
    const token = tokens[`${who}-key`]?.token as string
    for (const word of VOCABULARY) {
      const expected = world.searchHits(who, word)
      for (const limit of pageSizes) {
        const hits = await searchAll(app, token, {
          query: word,
          limit,
          max_tokens: 20_000,
          types: ['project', 'canvas', 'task', 'okr', 'comment'],
        })
        const keys = hits.map((hit) => {
          const key = keyOf.get(hit.id)
          assert.ok(key, `foreign or unknown id ${hit.id}`)
          return key
        })
        assert.deepEqual([...keys].sort(), expected, `${who} searching "${word}" (limit ${limit})`)
        const scores = hits.map((hit) => hit.score)
        assert.deepEqual(
          scores,
          [...scores].sort((a, b) => b - a),
          'ranked by score',
        )
      }
    }
  }
}

import assert from 'node:assert/strict'
import type { FastifyInstance } from 'fastify'
import type { ImportResult } from '../../src/bundle/import-bundle.ts'
import { countTokens } from '../../src/lib/token-budget.ts'
import type { World } from './oracle.ts'
import { client } from './test-app.ts'

/**
 * For every principal and everything it may open: the summary fits its budget, every [n] refers
 * to a citation, and every citation and link names something the oracle says it may open.
 */
export async function checkSummaries(
  app: FastifyInstance,
  world: World,
  result: ImportResult,
  maxTokens: number,
): Promise<void> {
  const keyOf = new Map(Object.entries(result.ids).map(([key, id]) => [id, key]))
  const tokens = { ...result.api_keys, ...result.workspace_tokens }
  for (const who of [...world.roles.keys(), ...world.integrations]) {
    const api = client(app, tokens[`${who}-key`]?.token)
    for (const key of world.allKeys().filter((k) => world.canOpen(who, k))) {
      const reply = await api.get(
        `/v1/resources/${result.ids[key]}/summary?max_tokens=${maxTokens}`,
      )
      assert.equal(reply.status, 200, `${who} summary of ${key}: ${reply.body}`)
      assert.ok(countTokens(reply.body) <= maxTokens, 'within max_tokens')
      assert.equal(reply.json.budget.used_tokens, countTokens(reply.body))
      const markers = [...String(reply.json.text).matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1]))
      assert.ok(
        markers.every((n) => n >= 1 && n <= reply.json.citations.length),
        'markers point at citations',
      )
      assert.deepEqual(
        [...new Set(markers)].sort((a, b) => a - b),
        reply.json.citations.map((_: unknown, i: number) => i + 1),
        'every citation is used',
      )
      for (const cited of [...reply.json.citations, ...reply.json.links] as { id: string }[]) {
        const citedKey = keyOf.get(cited.id)
        if (citedKey) {
          assert.ok(
            world.canOpen(who, citedKey) || world.canSeeIntegration(who, citedKey),
            `${who}: summary of ${key} names hidden ${citedKey}`,
          )
        } else {
          // Activity entries and the workspace are not bundle keys: ask the API itself.
          assert.equal(
            (await api.get(`/v1/resources/${cited.id}`)).status,
            200,
            `${who}: summary of ${key} cites ${cited.id}`,
          )
        }
      }
      const project = world.projects.get(key)
      if (project && reply.json.facts.open_tasks !== undefined) {
        const visible = [...world.tasks].filter(
          ([k, t]) => t.project === key && world.canOpenTask(who, k),
        ).length
        assert.equal(
          reply.json.facts.open_tasks + reply.json.facts.done_tasks,
          visible,
          `${who}: task counts of ${key}`,
        )
      }
    }
  }
}

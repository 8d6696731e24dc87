import assert from 'node:assert/strict'
import type { FastifyInstance } from 'fastify'
import type { ImportResult } from '../../src/bundle/import-bundle.ts'
import type { World } from './oracle.ts'
import { assertValidSummary } from './summary-shape.ts'
import { client } from './test-app.ts'

/**
 * For every principal and everything it may open: the summary is valid and fits its budget
 * (summary-shape.ts), and every source names something the oracle says it may open. Budgets
 * are used in turn, one per summary.
 */
export async function checkSummaries(
  app: FastifyInstance,
  world: World,
  result: ImportResult,
  budgets: number | readonly number[],
): Promise<void> {
  const turns = typeof budgets === 'number' ? [budgets] : budgets
  let turn = 0
  const keyOf = new Map(Object.entries(result.ids).map(([key, id]) => [id, key]))
  const tokens = { ...result.api_keys, ...result.workspace_tokens }
  for (const who of world.viewers()) {
    const api = client(app, tokens[`${who}-key`]?.token)
    for (const key of world.allKeys().filter((k) => world.canOpen(who, k))) {
      const maxTokens = turns[turn++ % turns.length] as number
      const reply = await api.get(
        `/v1/resources/${result.ids[key]}/summary?max_tokens=${maxTokens}`,
      )
      assert.equal(reply.status, 200, `${who} summary of ${key}: ${reply.body}`)
      assertValidSummary(reply.body, maxTokens, `${who} summary of ${key}`)
      for (const cited of reply.json.sources as { id: string }[]) {
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
      const { open_tasks: open, done_tasks: done } = reply.json.facts
      // Facts are given up from the last at small budgets: count only when both are there.
      if (project && open !== undefined && done !== undefined) {
        const visible = [...world.tasks].filter(
          ([k, t]) => t.project === key && world.canOpenTask(who, k),
        ).length
        assert.equal(open + done, visible, `${who}: task counts of ${key}`)
      }
    }
  }
}

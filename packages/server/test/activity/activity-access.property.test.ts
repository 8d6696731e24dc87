import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import fc from 'fast-check'
import type { Bundle } from '../../src/bundle/bundle.schema.ts'
import { fenceArbitrary, importWithFence } from '../harness/fenced-viewers.ts'
import { markBundle, markersIn } from '../harness/marked-world.ts'
import type { World } from '../harness/oracle.ts'
import { PROPERTY_RUNS, PROPERTY_SETTINGS } from '../harness/property-settings.ts'
import { allPages, client, startTestApp, type TestApp } from '../harness/test-app.ts'
import { worldArbitrary } from '../harness/world-arbitrary.ts'

// The activity stream of random workspaces, for every principal with a token that reads
// everything: exactly the entries whose subject and every resource they mention the oracle says
// it may open, and no id or marker of anything else. The stream alone, so that many worlds fit
// in a run (`WORKGRAPH_PROPERTY_RUNS=500` for a longer one).

let t: TestApp
before(async () => {
  t = await startTestApp()
})
after(() => t.close())

test('activity shows exactly the entries whose subject and mentions the caller may open', async () => {
  await fc.assert(
    fc.asyncProperty(worldArbitrary('s'), fenceArbitrary, async (plain, fence) => {
      const { bundle, markers } = markBundle(plain)
      const { result, world } = await importWithFence(t, bundle, fence)
      const keyOf = new Map(Object.entries(result.ids).map(([key, id]) => [id, key]))
      for (const who of world.viewers()) {
        const token = (result.api_keys[`${who}-key`] ?? result.workspace_tokens[`${who}-key`])
          ?.token as string
        const entries = await allPages(client(t.app, token), '/v1/activity', 7)
        const seen = entries.map((entry) => `${entry.verb} ${keyOf.get(entry.subject_id)}`)
        assert.deepEqual(seen.sort(), expectedActivity(bundle, world, who), `${who}'s activity`)
        for (const entry of entries) {
          const body = JSON.stringify(entry)
          for (const id of [entry.object_id, entry.project_id]) {
            const key = id === null ? null : (keyOf.get(id) ?? id)
            assert.ok(key === null || world.canOpen(who, key), `${who} sees ${key} in ${body}`)
          }
          for (const marker of markersIn(body)) {
            const key = markers.get(marker) as string
            assert.ok(world.canOpen(who, key), `${who} sees hidden ${key} in ${body}`)
          }
        }
      }
    }),
    { numRuns: PROPERTY_RUNS, ...PROPERTY_SETTINGS },
  )
})

// What an import records (`verb subject`, sorted), kept where the principal may open the subject
// and everything the entry mentions: its project, and a subtask's parent or a comment's target.
function expectedActivity(bundle: Bundle, world: World, who: string): string[] {
  const entries: [string, string, (string | null | undefined)[]][] = []
  for (const p of bundle.projects ?? []) entries.push(['project.created', p.key, []])
  for (const c of bundle.canvases ?? []) entries.push(['canvas.created', c.key, [c.project]])
  for (const task of bundle.tasks ?? []) {
    entries.push(['task.created', task.key, [task.project, task.parent]])
    if (task.status === 'done')
      entries.push(['task.completed', task.key, [task.project, task.parent]])
  }
  for (const o of bundle.okrs ?? []) entries.push(['okr.created', o.key, [o.project]])
  const projectOf = (key: string) =>
    world.projects.has(key)
      ? key
      : (world.canvases.get(key)?.project ??
        world.tasks.get(key)?.project ??
        world.okrs.get(key)?.project)
  for (const c of bundle.comments ?? [])
    entries.push(['comment.created', c.key, [projectOf(c.on), c.on]])
  return entries
    .filter(([, subject, refs]) =>
      [subject, ...refs].every((key) => !key || world.canOpen(who, key)),
    )
    .map(([verb, subject]) => `${verb} ${subject}`)
    .sort()
}

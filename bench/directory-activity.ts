/**
 * What changes to people and teams cost the activity stream and the change feed, whose entries
 * about them are tested by the directory's rule rather than the resource index (docs/changes.md).
 * On the demo workspace (PGlite, in memory), after `--teams` teams are created through the API
 * with two members each, times for a member, a guest and the owner:
 *
 * - the first page of `GET /v1/activity` (50 entries), every entry vs content verbs only;
 * - one scan of the change feed (a window of positions from the oldest), every change vs
 *   content events only.
 *
 * The content-only read, in the same run, is the yardstick: it is the statement the stream ran
 * before directory entries joined it. Reported as medians and their ratio.
 *
 *   node bench/directory-activity.ts [--teams 40] [--iterations 40]
 */
import { parseArgs } from 'node:util'
import { sql } from 'kysely'
import { listActivity } from '../packages/server/src/activity/activity.queries.ts'
import { buildApp } from '../packages/server/src/app.ts'
import { ACTIVITY_VERBS, type ActivityVerb } from '../packages/server/src/catalogue/verbs.ts'
import { scanChanges } from '../packages/server/src/graph/changes/changes.queries.ts'
import { SCAN_WINDOW } from '../packages/server/src/graph/changes/read-changes.ts'
import { numberCommittedChanges } from '../packages/server/src/writes/change-positions.ts'
import { openDemoWorld } from './demo-world.ts'

const { values } = parseArgs({
  options: {
    teams: { type: 'string', default: '40' },
    iterations: { type: 'string', default: '40' },
  },
})
const world = await openDemoWorld()
const app = await buildApp(world.deps)
const { db } = world.deps
const ws = world.workspaceId

// Directory changes made as they are in use: through the API, by the owner, whose demo key is
// given the scope that teams are written with.
await db
  .updateTable('tokens')
  .set({ scopes: ['people:read', 'people:write'] })
  .where('workspace_id', '=', ws)
  .where('person_id', '=', world.ids.ada ?? '')
  .execute()
const owner = { authorization: `Bearer ${world.tokens['ada-key']}` }
const members = await db
  .selectFrom('people')
  .select('id')
  .where('workspace_id', '=', ws)
  .where('role', '<>', 'guest')
  .orderBy('id')
  .execute()
for (let i = 0; i < Number(values.teams); i++) {
  const made = await app.inject({
    method: 'POST',
    url: '/v1/teams',
    headers: owner,
    payload: { name: `Bench team ${i}` },
  })
  if (made.statusCode !== 201) throw new Error(`team: ${made.statusCode} ${made.body}`)
  const team = made.json().id as string
  for (const person of [members[i % members.length], members[(i + 1) % members.length]]) {
    const added = await app.inject({
      method: 'POST',
      url: `/v1/teams/${team}/members`,
      headers: owner,
      payload: { person_id: person?.id },
    })
    if (added.statusCode >= 300) throw new Error(`member: ${added.statusCode} ${added.body}`)
  }
}
await numberCommittedChanges(db, ws)
// As `workgraph import` leaves a database: with the planner's statistics.
await sql`analyze`.execute(db)

const CONTENT_VERBS = ACTIVITY_VERBS.filter(
  (verb) => !verb.startsWith('team.') && !verb.startsWith('person.'),
) as ActivityVerb[]
const iterations = Number(values.iterations)

/** Median milliseconds of `run`, after five warm-up runs. */
async function median(run: () => Promise<unknown>): Promise<number> {
  const samples: number[] = []
  for (let i = 0; i < iterations + 5; i++) {
    const started = performance.now()
    await run()
    if (i >= 5) samples.push(performance.now() - started)
  }
  samples.sort((a, b) => a - b)
  return samples[Math.floor(samples.length / 2)] as number
}

const rows = [
  '| who | read | all ms | content only ms | ratio | entries shown |',
  '| --- | --- | ---: | ---: | ---: | ---: |',
]
for (const who of ['elena', 'noor', 'ada']) {
  const caller = await world.callerOf(who)
  const { visibility, readableKinds } = caller
  const page = (verbs?: ActivityVerb[]) =>
    listActivity(db, visibility, readableKinds, verbs ? { verbs } : {}, null, 50)
  const scan = (events?: ActivityVerb[]) =>
    scanChanges(db, visibility, { resourceTypes: readableKinds, events }, 0, 50, SCAN_WINDOW)
  const shownPage = (await page()).length
  const shownScan = (await scan()).rows.length
  const pageAll = await median(() => page())
  const pageContent = await median(() => page(CONTENT_VERBS))
  const scanAll = await median(() => scan())
  const scanContent = await median(() => scan(CONTENT_VERBS))
  const row = (read: string, all: number, content: number, shown: number) =>
    `| ${who} | ${read} | ${all.toFixed(2)} | ${content.toFixed(2)} | ${(all / content).toFixed(2)} | ${shown} |`
  rows.push(row('activity page', pageAll, pageContent, shownPage))
  rows.push(row('feed scan', scanAll, scanContent, shownScan))
}
await app.close()
await world.close()
process.stdout.write(`${rows.join('\n')}\n`)

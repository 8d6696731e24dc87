/**
 * Server time of the dashboard's pages on the demo workspace (docs/dashboard.md): each page is
 * requested through the real Fastify app (`inject`, no network) with a signed-in session, and
 * timed from request to the last byte. Runs in memory on PGlite.
 *
 *   node bench/page-latency.ts [--as ada] [--iterations 50]
 */
import { parseArgs } from 'node:util'
import { buildApp } from '../packages/server/src/app.ts'
import { startSession } from '../packages/server/src/web/web-session.ts'
import { openDemoWorld } from './demo-world.ts'

const { values } = parseArgs({
  options: {
    as: { type: 'string', default: 'ada' },
    iterations: { type: 'string', default: '50' },
  },
})
const world = await openDemoWorld()
const app = await buildApp(world.deps)
const { db } = world.deps
const personId = world.ids[values.as] as string
const value = await startSession(db, {
  workspaceId: world.workspaceId,
  personId,
  now: world.deps.clock.now(),
})
const cookie = `workgraph_session=${value}`
const first = async (table: 'tasks' | 'canvases' | 'objectives' | 'teams' | 'projects') =>
  (
    await db
      .selectFrom(table)
      .select('id')
      .where('workspace_id', '=', world.workspaceId)
      .orderBy('id')
      .executeTakeFirstOrThrow()
  ).id
const ws = world.workspaceId
// The busiest project of the demo (most tasks): the worst case of the project page.
const busiest = await db
  .selectFrom('tasks')
  .select(['project_id', (eb) => eb.fn.countAll<number>().as('n')])
  .where('workspace_id', '=', ws)
  .groupBy('project_id')
  .orderBy('n', 'desc')
  .executeTakeFirstOrThrow()
const pages: [string, string][] = [
  ['home', '/'],
  ['project (busiest)', `/${ws}/project/${busiest.project_id}`],
  ['task', `/${ws}/task/${await first('tasks')}`],
  ['canvas', `/${ws}/canvas/${await first('canvases')}`],
  ['okr', `/${ws}/okr/${await first('objectives')}`],
  ['person', `/${ws}/person/${personId}`],
  ['team', `/${ws}/team/${await first('teams')}`],
]
const iterations = Number(values.iterations)
const rows: string[] = ['| page | p50 ms | p95 ms | bytes |', '| --- | ---: | ---: | ---: |']
for (const [name, url] of pages) {
  const samples: number[] = []
  let bytes = 0
  for (let i = 0; i < iterations + 5; i++) {
    const started = performance.now()
    const reply = await app.inject({ method: 'GET', url, headers: { cookie, accept: 'text/html' } })
    if (reply.statusCode !== 200) throw new Error(`${name}: ${reply.statusCode}`)
    if (i >= 5) samples.push(performance.now() - started)
    bytes = reply.body.length
  }
  samples.sort((a, b) => a - b)
  const at = (q: number) =>
    (samples[Math.min(samples.length - 1, Math.floor(q * samples.length))] as number).toFixed(1)
  rows.push(`| ${name} | ${at(0.5)} | ${at(0.95)} | ${bytes} |`)
}
await app.close()
await world.close()
process.stdout.write(`${rows.join('\n')}\n`)

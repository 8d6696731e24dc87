import type { Kysely } from 'kysely'
import { type Principal, resolvePrincipal } from '../packages/server/src/access/principal.ts'
import { type Visibility, visibilityFor } from '../packages/server/src/access/visibility.ts'
import type { Database } from '../packages/server/src/db/database.ts'
import { listCanvases } from '../packages/server/src/graph/canvases/canvases.queries.ts'
import { listOkrs } from '../packages/server/src/graph/okrs/okrs.queries.ts'
import { listProjects } from '../packages/server/src/graph/projects/projects.queries.ts'
import { listTasks } from '../packages/server/src/graph/tasks/tasks.queries.ts'
import { baselineVisibility, inTurns } from './baseline-visibility.ts'

/** Latency and throughput of one list query, with and without the permission predicate. */
export interface ListQueryResult {
  principal: string
  tokens: number
  list: string
  filtered: { p50: number; p95: number; perSecond: number }
  baseline: { p50: number; p95: number; perSecond: number }
  overhead: number
}

const ALL_TYPES = ['project', 'canvas', 'task', 'okr', 'comment']
const LISTS: Record<string, (db: Kysely<Database>, v: Visibility) => Promise<unknown>> = {
  projects: (db, v) => listProjects(db, v, {}, null, 20),
  tasks: (db, v) => listTasks(db, v, {}, null, 20),
  canvases: (db, v) => listCanvases(db, v, ALL_TYPES, {}, null, 20),
  okrs: (db, v) => listOkrs(db, v, {}, null, 20),
}

function stats(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b)
  const at = (q: number) =>
    sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number
  const mean = samples.reduce((a, b) => a + b, 0) / samples.length
  return { p50: round(at(0.5)), p95: round(at(0.95)), perSecond: round(1000 / mean), mean }
}

function round(value: number) {
  return Math.round(value * 100) / 100
}

/**
 * The first page (20 items) of each list for each principal, run alternately with the real
 * visibility and the baseline so that both see the same cache and load.
 */
export async function benchListQueries(
  db: Kysely<Database>,
  workspaceId: string,
  people: Record<string, { id: string; role: 'owner' | 'admin' | 'member' | 'guest' }>,
  iterations: number,
): Promise<ListQueryResult[]> {
  const results: ListQueryResult[] = []
  for (const [name, person] of Object.entries(people)) {
    const principal: Principal = await resolvePrincipal(db, {
      workspaceId,
      actorId: person.id,
      actorKind: 'person',
      role: person.role,
    })
    for (const [list, run] of Object.entries(LISTS)) {
      const filtered: number[] = []
      const baseline: number[] = []
      for (let i = 0; i < iterations + 10; i++) {
        for (const [samples, visibility] of inTurns(
          i,
          [filtered, visibilityFor(principal)] as const,
          [baseline, baselineVisibility(principal)] as const,
        )) {
          const started = performance.now()
          await run(db, visibility)
          if (i >= 10) samples.push(performance.now() - started)
        }
      }
      const f = stats(filtered)
      const b = stats(baseline)
      results.push({
        principal: name,
        tokens: principal.tokens.length,
        list,
        filtered: { p50: f.p50, p95: f.p95, perSecond: f.perSecond },
        baseline: { p50: b.p50, p95: b.p95, perSecond: b.perSecond },
        overhead: round(f.mean / b.mean - 1),
      })
    }
  }
  return results
}

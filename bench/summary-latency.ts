import { type Kysely, sql } from 'kysely'
import { resolvePrincipal } from '../packages/server/src/access/principal.ts'
import { visibilityFor } from '../packages/server/src/access/visibility.ts'
import type { Database } from '../packages/server/src/db/database.ts'
import { summarizeProject } from '../packages/server/src/kinds/project/project.summary.ts'
import { summarizeTask } from '../packages/server/src/kinds/task/task.summary.ts'
import { UrlBuilder } from '../packages/server/src/lib/resource-urls.ts'
import { packSummary } from '../packages/server/src/summaries/pack-summary.ts'
import type { SummaryContext } from '../packages/server/src/summaries/summary-context.ts'
import type { Percentiles } from './search-queries.ts'

/** Summary latency of one kind for one principal. */
export interface SummaryLatency {
  principal: string
  kind: string
  samples: number
  latency: Percentiles
}

const READABLE = [
  'project',
  'canvas',
  'task',
  'okr',
  'comment',
  'activity',
  'person',
  'team',
] as const

/** Summarizes (and packs into 1,000 tokens) visible projects and tasks, timing each. */
export async function benchSummaries(
  db: Kysely<Database>,
  workspaceId: string,
  people: Record<string, { id: string; role: 'owner' | 'admin' | 'member' | 'guest' }>,
  count: number,
): Promise<SummaryLatency[]> {
  const results: SummaryLatency[] = []
  const urls = new UrlBuilder({ appUrl: 'https://app.example', publicUrl: 'http://127.0.0.1:8080' })
  for (const [name, person] of Object.entries(people)) {
    const visibility = visibilityFor(
      await resolvePrincipal(db, {
        workspaceId,
        actorId: person.id,
        actorKind: 'person',
        role: person.role,
      }),
    )
    const ctx: SummaryContext = {
      db,
      visibility,
      urls,
      today: '2026-11-22',
      readableKinds: READABLE,
    }
    for (const [kind, summarize] of [
      ['project', summarizeProject],
      ['task', summarizeTask],
    ] as const) {
      const ids = await sql<{ id: string }>`
        select r.id from resource_index r where r.workspace_id = ${workspaceId} and r.type = ${kind} and ${visibility.row('r')}
        order by r.id limit ${count}`.execute(db)
      const samples: number[] = []
      for (const { id } of ids.rows) {
        const started = performance.now()
        const summary = await summarize(ctx, id)
        if (summary)
          packSummary(
            { id, type: kind, title: summary.title, url: '', as_of: '' },
            summary.builder,
            1000,
          )
        samples.push(performance.now() - started)
      }
      const sorted = samples.sort((a, b) => a - b)
      const at = (q: number) =>
        Math.round(
          (sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0) * 100,
        ) / 100
      results.push({
        principal: name,
        kind,
        samples: samples.length,
        latency: { p50: at(0.5), p95: at(0.95), p99: at(0.99) },
      })
    }
  }
  return results
}

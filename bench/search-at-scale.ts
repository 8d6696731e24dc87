/**
 * Search latency alone on a workspace already imported (`bench/import-generated.ts`), as the
 * 1,000,000-item runs of bench/HISTORY.md measure it: `searchIndex` in-process, with and without
 * the permission predicate, per term class and principal (a member, the power member, a guest),
 * first page over every type. No exact rankings: at this size they read every match.
 *
 *   node --conditions=workgraph:source bench/search-at-scale.ts --database-url URL \
 *     --ids '{"workspace_id":…,"ids":{"u1":…,"u2":…,"u5":…}}' [--iterations 40]
 */
import { parseArgs } from 'node:util'
import { openDatabase } from '../packages/server/src/db/connect.ts'
import { benchSearch } from './search-queries.ts'

const { values } = parseArgs({
  options: {
    'database-url': { type: 'string' },
    ids: { type: 'string' },
    iterations: { type: 'string', default: '40' },
  },
})
const imported = JSON.parse(values.ids as string) as {
  workspace_id: string
  ids: Record<string, string>
}
const handle = await openDatabase({ kind: 'postgres', url: values['database-url'] as string })
const { ids } = imported
const people = {
  member: { id: ids.u5 as string, role: 'member' as const },
  'power member': { id: ids.u1 as string, role: 'member' as const },
  guest: { id: ids.u2 as string, role: 'guest' as const },
}
const results = await benchSearch(
  handle.db,
  imported.workspace_id,
  people,
  Number(values.iterations),
  { quality: false },
)
await handle.close()
const classes = [...new Set(results.map((r) => r.terms))]
const lines = [
  `| principal (tokens) | ${classes.join(' | ')} |`,
  `|---|${classes.map(() => '---').join('|')}|`,
]
for (const principal of Object.keys(people)) {
  const rows = results.filter((r) => r.principal === principal)
  const cells = classes.map((c) => {
    const row = rows.find((r) => r.terms === c)
    return row ? `${row.filtered.p50} / ${row.filtered.p95}` : ''
  })
  lines.push(`| ${principal} (${rows[0]?.tokens ?? 0}) | ${cells.join(' | ')} |`)
}
process.stdout.write(`p50 / p95 in ms, with the permission predicate:\n${lines.join('\n')}\n`)

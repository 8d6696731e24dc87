/**
 * For bench:chaos: the tasks of an embedded data folder whose title is LIKE a pattern, by title
 * (how many of each), or with `--workspaces` the number of workspaces; as JSON on stdout.
 *
 *   node bench/count-tasks.ts <data folder> <pattern> [--workspaces]
 */
import { sql } from 'kysely'
import { openDatabase } from '../packages/server/src/db/connect.ts'

const [data, pattern, flag] = process.argv.slice(2)
const handle = await openDatabase({ kind: 'embedded', dataDir: data as string, durable: false })
try {
  if (flag === '--workspaces') {
    const rows = await sql<{ n: number }>`select count(*)::int as n from workspaces`.execute(
      handle.db,
    )
    console.log(JSON.stringify({ workspaces: rows.rows[0]?.n ?? 0 }))
  } else {
    const rows = await sql<{ title: string; n: number }>`
      select title, count(*)::int as n from tasks where title like ${pattern} group by title`.execute(
      handle.db,
    )
    console.log(JSON.stringify(Object.fromEntries(rows.rows.map((row) => [row.title, row.n]))))
  }
} finally {
  await handle.close()
}

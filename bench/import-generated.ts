/**
 * Generates a scaled workspace in memory and imports it (for scales whose bundle file would be too
 * large to read back as one string). Prints what `import-child.ts` prints.
 *
 *   node --max-old-space-size=12000 bench/import-generated.ts --scale N (--data DIR | --database-url URL)
 */
import { parseArgs } from 'node:util'
import { sql } from 'kysely'
import { scaledBundle } from '../packages/server/src/bundle/demo/scaled-bundle.ts'
import { importBundle } from '../packages/server/src/bundle/import-bundle.ts'
import { openDatabase } from '../packages/server/src/db/connect.ts'
import { migrateToLatest } from '../packages/server/src/db/migrate.ts'

const { values } = parseArgs({
  options: {
    scale: { type: 'string' },
    data: { type: 'string' },
    'database-url': { type: 'string' },
  },
})
const handle = await openDatabase(
  values['database-url']
    ? { kind: 'postgres', url: values['database-url'] }
    : { kind: 'embedded', dataDir: values.data as string },
)
await migrateToLatest(handle.db)
const bundle = scaledBundle({ scale: Number(values.scale), seed: 1 })
const started = performance.now()
const outcome = await importBundle(handle.db, bundle, {
  onProgress: (done, total) => {
    if (done % 200_000 < 30_000) process.stderr.write(`  ${done}/${total} rows\n`)
  },
})
if (!outcome.ok) throw new Error(JSON.stringify(outcome.problems.slice(0, 5)))
await sql`vacuum analyze`.execute(handle.db)
const seconds = (performance.now() - started) / 1000
await handle.close()
const { result } = outcome
process.stdout.write(
  JSON.stringify({
    seconds,
    peakRssMb: process.resourceUsage().maxRSS / 1024,
    result: {
      workspace_id: result.workspace_id,
      api_keys: result.api_keys,
      ids: { u0: result.ids.u0, u1: result.ids.u1, u2: result.ids.u2, u5: result.ids.u5 },
    },
  }),
)

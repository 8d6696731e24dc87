import { parseArgs } from 'node:util'
import { loadConfig } from '../config.ts'
import type { CliIO } from './cli-io.ts'
import { describeDatabase, openMigratedDatabase } from './open-database.ts'

/** `workgraph migrate [--data DIR | --database-url URL]`: applies pending schema migrations. */
export async function migrateCommand(args: string[], io: CliIO): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { data: { type: 'string' }, 'database-url': { type: 'string' } },
    strict: true,
  })
  const config = loadConfig(io.env, { data: values.data, databaseUrl: values['database-url'] })
  const handle = await openMigratedDatabase(config)
  await handle.close()
  io.stdout.write(`Migrations are up to date (${describeDatabase(config)}).\n`)
  return 0
}

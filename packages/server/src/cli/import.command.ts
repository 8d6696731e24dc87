import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { sql } from 'kysely'
import { prepareImport, writeImport } from '../bundle/import-bundle.ts'
import type { Problem } from '../bundle/schema-problems.ts'
import { loadConfig } from '../config.ts'
import { type CliIO, CommandFailure, UsageError } from './cli-io.ts'
import { commandStillWaits } from './embedded-import-process.ts'
import { describeDatabase, openMigratedDatabase } from './open-database.ts'
import { progressBar } from './progress-bar.ts'

/**
 * `workgraph import FILE [--data DIR | --database-url URL] [--json]`: imports a workspace bundle
 * in one transaction, or lists every problem and writes nothing (exit status 1).
 */
export async function importCommand(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      data: { type: 'string' },
      'database-url': { type: 'string' },
      json: { type: 'boolean', default: false },
    },
    strict: true,
  })
  const [file, ...extra] = positionals
  if (!file || extra.length > 0) throw new UsageError('Give exactly one bundle file.')
  const config = loadConfig(io.env, { data: values.data, databaseUrl: values['database-url'] })

  const parsed = readBundleFile(file)
  if (!parsed.ok) return reportProblems(io, values.json, parsed.problems)
  // With --json, standard error carries only a JSON error, so a script can parse it.
  const bar = progressBar(values.json ? { write: () => true } : io.stderr, 'Importing')
  const started = performance.now()
  // The planner is the parsed bundle's only holder, so the bundle is collected before the plan
  // is written (docs/bundles.md, "Memory"); invalid bundles never open the database.
  const prepared = prepareImport(parsed.take(), { onPhase: bar.phase })
  if (!prepared.ok) {
    bar.finish()
    return reportProblems(io, values.json, prepared.problems)
  }

  const handle = await openMigratedDatabase(config)
  try {
    const result = await writeImport(handle.db, prepared.plan, {
      onProgress: bar.update,
      onPhase: bar.phase,
      // Nobody would see what it made: all or nothing, so nothing.
      beforeCommit: () => {
        if (!commandStillWaits())
          throw new CommandFailure(
            'The command that started this import ended; nothing was imported.',
          )
      },
    })
    bar.phase('analyzing')
    // Fresh statistics for the planner, and GIN pending lists merged into their indexes (until a
    // vacuum, every ACL and full-text lookup scans the whole list); PGlite has no autovacuum.
    await sql`vacuum analyze`.execute(handle.db)
    // PGlite keeps a large WAL after a bulk load until a checkpoint.
    if (handle.engine === 'pglite') await sql`checkpoint`.execute(handle.db)
    bar.finish()
    if (values.json) {
      io.stdout.write(`${JSON.stringify(result, null, 2)}\n`)
      return 0
    }
    const seconds = ((performance.now() - started) / 1000).toFixed(1)
    const lines = [
      `Imported workspace ${result.workspace_id} (${Object.keys(result.ids).length} objects, ${seconds} s) into the ${describeDatabase(config)}.`,
      ...secretLines('API keys', result.api_keys),
      ...secretLines('Workspace tokens', result.workspace_tokens),
      ...Object.entries(result.oauth_clients).map(
        ([key, c]) =>
          `OAuth client ${key}: client_id ${c.client_id}${c.client_secret ? `, client_secret ${c.client_secret}` : ' (public)'}`,
      ),
    ]
    if (Object.keys(result.api_keys).length + Object.keys(result.workspace_tokens).length > 0) {
      lines.push('Secrets are shown only now; only their hashes were stored.')
    }
    io.stdout.write(`${lines.join('\n')}\n`)
    return 0
  } finally {
    await handle.close()
  }
}

function secretLines(
  title: string,
  secrets: Record<string, { id: string; token: string }>,
): string[] {
  const entries = Object.entries(secrets)
  return entries.length === 0
    ? []
    : [`${title}:`, ...entries.map(([key, s]) => `  ${key} (${s.id}): ${s.token}`)]
}

function reportProblems(io: CliIO, json: boolean | undefined, problems: Problem[]): number {
  if (json) {
    io.stdout.write(`${JSON.stringify({ problems }, null, 2)}\n`)
  } else {
    io.stderr.write(
      `The bundle was not imported; nothing was written. ${problems.length} problem${problems.length === 1 ? '' : 's'}:\n`,
    )
    for (const problem of problems)
      io.stderr.write(`  ${problem.path || '(bundle)'}: ${problem.message}\n`)
  }
  return 1
}

/**
 * The bundle file parsed, handed out once: `take` forgets it, so only its receiver holds it.
 * Problems name the file when it cannot be read or is not JSON.
 */
function readBundleFile(
  file: string,
): { ok: true; take: () => unknown } | { ok: false; problems: Problem[] } {
  let input: unknown
  try {
    input = JSON.parse(readFileSync(file, 'utf8'))
  } catch (error) {
    const message = (error as NodeJS.ErrnoException).code
      ? `cannot read ${file}: ${(error as Error).message}`
      : `is not valid JSON: ${(error as Error).message}`
    return { ok: false, problems: [{ path: '', message }] }
  }
  return {
    ok: true,
    take: () => {
      const taken = input
      input = undefined
      return taken
    },
  }
}

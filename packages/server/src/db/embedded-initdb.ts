import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const CHILD = fileURLToPath(new URL('./embedded-initdb.child.ts', import.meta.url))

/**
 * Creates the embedded database's files in `pgdata` if they do not exist yet, in a child process
 * compiled by Liftoff only. PGlite's initdb in this process cost a large peak of memory, most of
 * it V8's optimizing compiler working on PostgreSQL's WebAssembly, and that memory stayed reserved
 * afterwards; the child peaks lower and gives everything back when it exits (bench/HISTORY.md,
 * "Memory").
 */
export function initEmbeddedDataDir(pgdata: string): void {
  if (existsSync(join(pgdata, 'PG_VERSION'))) return
  const child = spawnSync(process.execPath, ['--liftoff-only', CHILD, pgdata], {
    stdio: ['ignore', 'ignore', 'pipe'],
    encoding: 'utf8',
  })
  if (child.status !== 0)
    throw new Error(`could not create the embedded database in ${pgdata}: ${child.stderr}`)
}

import { spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync, readdirSync, renameSync, rmSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { DataFolderError } from '../lib/data-folder-check.ts'

const CHILD = fileURLToPath(new URL('./embedded-initdb.child.ts', import.meta.url))

/**
 * Creates the embedded database's files in `pgdata` if they do not exist yet, in a child process
 * compiled by Liftoff only. PGlite's initdb in this process cost a large peak of memory, most of
 * it V8's optimizing compiler working on PostgreSQL's WebAssembly, and that memory stayed reserved
 * afterwards; the child peaks lower and gives everything back when it exits (bench/HISTORY.md,
 * "Memory").
 *
 * All or nothing: the child creates the files in a draft folder beside `pgdata`, which takes its
 * name only once complete, so a process killed halfway leaves no half-made database behind; the
 * child ends with this process (it watches a pipe from it), and the drafts of earlier attempts
 * are removed first. The caller holds the data folder's lock, so no draft is another's at work.
 */
export function initEmbeddedDataDir(pgdata: string): void {
  if (existsSync(join(pgdata, 'PG_VERSION'))) return
  // Never removed: whatever it holds is not ours to throw away.
  if (existsSync(pgdata) && readdirSync(pgdata).length > 0)
    throw new DataFolderError(
      `${pgdata} holds a database that was never finished (it has no PG_VERSION): an earlier start was stopped while creating it. Move it away to start afresh.`,
    )
  const folder = dirname(pgdata)
  const prefix = `${basename(pgdata)}.init-`
  for (const entry of readdirSync(folder))
    if (entry.startsWith(prefix)) rmSync(join(folder, entry), { recursive: true, force: true })
  const draft = join(folder, `${prefix}${randomBytes(6).toString('hex')}`)
  const child = spawnSync(process.execPath, ['--liftoff-only', CHILD, draft], {
    // fd 3: a pipe this process holds until it ends; the child stops when it closes.
    stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
    encoding: 'utf8',
  })
  if (child.status !== 0) {
    rmSync(draft, { recursive: true, force: true })
    throw new Error(`could not create the embedded database in ${pgdata}: ${child.stderr}`)
  }
  try {
    rmSync(pgdata, { recursive: true, force: true })
    renameSync(draft, pgdata)
  } catch (error) {
    rmSync(draft, { recursive: true, force: true })
    throw error
  }
}

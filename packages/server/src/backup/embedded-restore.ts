import { randomBytes } from 'node:crypto'
import {
  closeSync,
  existsSync,
  fsyncSync,
  openSync,
  readdirSync,
  renameSync,
  rmdirSync,
  rmSync,
} from 'node:fs'
import { basename, join } from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { extensions } from '../db/connect.ts'
import { lockDataDir } from '../db/embedded-lock.ts'
import { EMBEDDED_START_PARAMS } from '../db/embedded-settings.ts'
import { checkDataFolder } from '../lib/data-folder-check.ts'
import { BackupFailure } from './backup-failure.ts'
import { NotABackupError, unpackEmbeddedArchive } from './embedded-archive.ts'
import { hasNoDatabase, pgdataOf } from './embedded-folder.ts'

/**
 * Restores an embedded backup into a data folder that has no database, all or nothing: the files
 * are written into a draft folder beside `pgdata`, opened once by PGlite (which proves they are
 * a database, and a Workgraph one), synced to disk, and only then renamed to `pgdata`. A folder
 * that holds a database is refused before anything is written, and again under its lock.
 */
export async function restoreEmbedded(
  dataDir: string,
  archive: Buffer,
  file: string,
): Promise<void> {
  refuseHeldFolder(dataDir)
  let tar: Buffer
  try {
    tar = await unpackEmbeddedArchive(archive)
  } catch (error) {
    if (!(error instanceof NotABackupError)) throw error
    throw new BackupFailure(`${file} is not a backup Workgraph can restore: ${error.message}.`)
  }
  checkDataFolder(dataDir)
  const lock = await lockDataDir(dataDir)
  try {
    refuseHeldFolder(dataDir)
    const pgdata = pgdataOf(dataDir)
    // Drafts of restores that were stopped halfway: under the lock, none is another's at work.
    for (const entry of readdirSync(dataDir))
      if (entry.startsWith(`${basename(pgdata)}.restore-`))
        rmSync(join(dataDir, entry), { recursive: true, force: true })
    const draft = `${pgdata}.restore-${randomBytes(6).toString('hex')}`
    try {
      await openOnce(draft, tar, file)
      syncTree(draft)
      // An empty pgdata (a start stopped before initdb began) is not a database; it makes way.
      if (existsSync(pgdata)) rmdirSync(pgdata)
      renameSync(draft, pgdata)
      syncTree(dataDir, false)
    } catch (error) {
      rmSync(draft, { recursive: true, force: true })
      throw error
    }
  } finally {
    await lock.release()
  }
}

function refuseHeldFolder(dataDir: string): void {
  if (!hasNoDatabase(dataDir))
    throw new BackupFailure(
      `The data folder ${dataDir} holds a database already, so nothing was restored: restore ` +
        'into a folder without one (a new --data), then start the server on it.',
    )
}

// PGlite writes the archive's files into `draft` and starts on them, as the server will.
async function openOnce(draft: string, tar: Buffer, file: string): Promise<void> {
  let pglite: PGlite | undefined
  try {
    pglite = new PGlite(draft, {
      loadDataDir: new Blob([new Uint8Array(tar)]),
      extensions,
      startParams: EMBEDDED_START_PARAMS,
    })
    await pglite.waitReady
  } catch (error) {
    throw new BackupFailure(
      `${file} holds files the embedded database cannot start on (${(error as Error).message}); nothing was restored.`,
    )
  }
  try {
    await pglite.query('select count(*) from kysely_migration')
  } catch {
    throw new BackupFailure(
      `${file} holds a database, but not a Workgraph one (it has no migrations table); nothing was restored.`,
    )
  } finally {
    await pglite.close()
  }
}

// PGlite leaves writing to the disk to the operating system: the restore is durable only once
// every file, and the folders that name them, have been synced.
function syncTree(path: string, recursive = true): void {
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    if (entry.isDirectory() && recursive) syncTree(join(path, entry.name))
    else if (entry.isFile() && recursive) syncFile(join(path, entry.name))
  }
  syncFile(path)
}

function syncFile(path: string): void {
  const fd = openSync(path, 'r')
  try {
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
}

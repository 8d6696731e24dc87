import { cpSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type DatabaseHandle, openDatabase } from '../db/connect.ts'
import { lockDataDir } from '../db/embedded-lock.ts'
import { migrateToLatest } from '../db/migrate.ts'
import { pgdataOf } from './embedded-folder.ts'

/** A private, open copy of an embedded database, and how to close and remove it. */
export interface SourceCopy {
  readonly handle: DatabaseHandle
  close(): Promise<void>
}

/**
 * Opens a copy of the embedded database in `dataDir`, made in a temporary folder (TMPDIR) while
 * this process holds the folder's lock, and migrated to this version's schema. Opening a
 * database writes to its files (recovery, checkpoints, migrations), so the original is only ever
 * read: it stays byte for byte what it was. The lock is held until `close`, so no server starts
 * on the folder and writes what the move would not carry. A held folder is a DataDirLockedError.
 */
export async function openSourceCopy(dataDir: string): Promise<SourceCopy> {
  const lock = await lockDataDir(dataDir)
  const folder = mkdtempSync(join(tmpdir(), 'workgraph-move-'))
  let handle: DatabaseHandle | undefined
  try {
    cpSync(pgdataOf(dataDir), pgdataOf(folder), { recursive: true })
    handle = await openDatabase({ kind: 'embedded', dataDir: folder, durable: false })
    await migrateToLatest(handle.db)
  } catch (error) {
    await handle?.close()
    rmSync(folder, { recursive: true, force: true })
    await lock.release()
    throw error
  }
  const opened = handle
  return {
    handle: opened,
    async close() {
      await opened.close()
      rmSync(folder, { recursive: true, force: true })
      await lock.release()
    },
  }
}

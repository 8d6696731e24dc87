import { accessSync, constants, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

/** The embedded database's folder cannot be used; the message says which and what to do. */
export class DataFolderError extends Error {}

/**
 * Checks, before the embedded database is opened, that its folder can be made, read and written:
 * the database engine would otherwise fail deep inside, naming neither the folder nor the cause.
 * Writing is tried for real (a file made and removed), since a read-only mount refuses what the
 * permissions allow.
 */
export function checkDataFolder(dataDir: string): void {
  const fail = (what: string, error: unknown): never => {
    const code = (error as NodeJS.ErrnoException).code ?? 'an error'
    const why =
      code === 'EROFS'
        ? 'it is on a read-only file system'
        : code === 'EACCES' || code === 'EPERM'
          ? 'the user running Workgraph may not'
          : code === 'ENOSPC'
            ? 'its disk is full'
            : `the system said ${code}`
    throw new DataFolderError(
      `Cannot ${what} the data folder ${dataDir}: ${why}. Give Workgraph a folder it can read and write with --data (or WORKGRAPH_DATA), or fix this one's permissions or mount.`,
    )
  }
  try {
    mkdirSync(dataDir, { recursive: true })
  } catch (error) {
    fail('create', error)
  }
  try {
    accessSync(dataDir, constants.R_OK | constants.X_OK)
    readdirSync(dataDir)
  } catch (error) {
    fail('read', error)
  }
  const probe = join(dataDir, `.write-check-${process.pid}`)
  try {
    writeFileSync(probe, '')
    rmSync(probe)
  } catch (error) {
    fail('write to', error)
  }
}

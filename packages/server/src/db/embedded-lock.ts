import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs'
import { join } from 'node:path'

/** The data folder is in use by another live process. */
export class DataDirLockedError extends Error {}

/** A held lock on an embedded data folder. */
export interface DataDirLock {
  release(): void
}

/**
 * Takes the lock file of an embedded data folder. PGlite itself takes no lock, and two processes
 * writing one folder corrupt it, so a second process must refuse to start. A lock left behind by
 * a process that no longer runs (a crash, `kill -9`) is taken over.
 */
export function lockDataDir(dataDir: string): DataDirLock {
  const file = join(dataDir, 'workgraph.lock')
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx', 0o600)
      writeSync(fd, String(process.pid))
      closeSync(fd)
      return { release: () => releaseIfOurs(file) }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      const holder = readHolder(file)
      if (holder !== null && holder !== process.pid && isAlive(holder)) {
        throw new DataDirLockedError(
          `The data folder ${dataDir} is in use by another Workgraph process (pid ${holder}). ` +
            'Stop that process first, or give this one its own folder with --data.',
        )
      }
      rmSync(file, { force: true })
    }
  }
  throw new DataDirLockedError(`Could not take the lock file ${file}.`)
}

function readHolder(file: string): number | null {
  try {
    const pid = Number(readFileSync(file, 'utf8').trim())
    return Number.isInteger(pid) && pid > 0 ? pid : null
  } catch {
    return null
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

function releaseIfOurs(file: string): void {
  if (readHolder(file) === process.pid) rmSync(file, { force: true })
}

import { randomBytes } from 'node:crypto'
import { closeSync, fsyncSync, openSync, renameSync, rmSync } from 'node:fs'
import { basename, dirname, join, resolve } from 'node:path'
import { BackupFailure } from './backup-failure.ts'

/** The output file could not be made; the message names it and the reason. */
export class OutputFileError extends BackupFailure {}

/**
 * Writes `file` all or nothing: `fill` writes a temporary file beside it (made first, readable by
 * its owner alone, so a backup's hashes and sealed secrets are not left readable by others, and
 * so an unwritable folder fails before any work), which is synced and then renamed over `file`.
 * A reader sees the old file or the whole new one, never half; a failure or a stop signal leaves
 * no temporary file.
 */
export async function writeAtomically(
  file: string,
  fill: (temporary: string) => Promise<void>,
): Promise<void> {
  const target = resolve(file)
  const temporary = join(
    dirname(target),
    `.${basename(target)}.${randomBytes(6).toString('hex')}.partial`,
  )
  try {
    closeSync(openSync(temporary, 'wx', 0o600))
  } catch (error) {
    throw new OutputFileError(`Cannot write ${file}: ${reason(error)}.`)
  }
  // Stopped halfway (Ctrl-C, a service manager), the command takes its temporary file with it,
  // then ends as the signal would have ended it. Only a kill -9 leaves the file behind.
  const stop = (signal: NodeJS.Signals) => {
    rmSync(temporary, { force: true })
    for (const each of STOPS) process.off(each, stop)
    process.kill(process.pid, signal)
  }
  for (const each of STOPS) process.on(each, stop)
  try {
    await fill(temporary)
    syncPath(temporary, 'r')
    renameSync(temporary, target)
  } catch (error) {
    rmSync(temporary, { force: true })
    if ((error as NodeJS.ErrnoException).code && !(error instanceof BackupFailure))
      throw new OutputFileError(`Cannot write ${file}: ${reason(error)}.`)
    throw error
  } finally {
    for (const each of STOPS) process.off(each, stop)
  }
  // The rename itself lasts once the folder's entry is on disk.
  syncPath(dirname(target), 'r')
}

const STOPS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP']

function syncPath(path: string, flags: string): void {
  const fd = openSync(path, flags)
  try {
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
}

function reason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code
  if (code === 'ENOENT') return 'its folder does not exist'
  if (code === 'EACCES' || code === 'EPERM') return 'this user may not write there'
  if (code === 'ENOSPC') return 'the disk is full'
  if (code === 'EROFS') return 'the file system is read-only'
  if (code === 'EISDIR') return 'it is a folder'
  return (error as Error).message
}

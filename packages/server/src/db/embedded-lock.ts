import { createHash } from 'node:crypto'
import { closeSync, openSync, readFileSync, realpathSync, rmSync, writeSync } from 'node:fs'
import { connect, createServer, type Server } from 'node:net'
import { join } from 'node:path'

/** The data folder is in use by another live process. */
export class DataDirLockedError extends Error {}

/** A held lock on an embedded data folder. */
export interface DataDirLock {
  release(): Promise<void>
}

/**
 * Takes the lock of an embedded data folder. PGlite itself takes no lock, and two processes
 * writing one folder corrupt it, so a second process must refuse to start.
 *
 * On Linux the lock is a socket in the abstract namespace named after the folder: binding it is
 * one atomic step that only one process can win, and the kernel lets go of it the moment its
 * process ends, however it ends, so there is no stale lock to take over and no race in taking
 * one over. The holder answers a connection with its pid, for the message. Elsewhere a lock file
 * holding the pid is created exclusively and taken over when its process is gone; that takeover
 * is best effort when several processes start at the same moment.
 */
export async function lockDataDir(dataDir: string): Promise<DataDirLock> {
  if (process.platform === 'linux') return lockWithAbstractSocket(dataDir)
  return lockWithFile(dataDir)
}

function inUse(dataDir: string, holder: number | null): DataDirLockedError {
  return new DataDirLockedError(
    `The data folder ${dataDir} is in use by another Workgraph process (pid ${holder ?? 'unknown'}). ` +
      'Stop that process first, or give this one its own folder with --data.',
  )
}

async function lockWithAbstractSocket(dataDir: string): Promise<DataDirLock> {
  // The real path, so that two spellings of one folder are one lock.
  const digest = createHash('sha256').update(realpathSync(dataDir)).digest('hex').slice(0, 40)
  const name = `\0workgraph-data-${digest}`
  const server = createServer((socket) => {
    // Any local process may connect; one that resets the connection must not end this one.
    socket.on('error', () => {})
    socket.end(String(process.pid))
  })
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(name, () => resolve())
    })
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error
    throw inUse(dataDir, await askHolder(name))
  }
  // Held from here on: a failed accept (too many open files, say) must not end the process.
  server.on('error', () => {})
  // The lock must not keep a process alive that has nothing else left to do.
  server.unref()
  return { release: () => closeServer(server) }
}

// The pid the holder answers with, or null when it does not answer in time.
function askHolder(name: string): Promise<number | null> {
  return new Promise((resolve) => {
    let answer = ''
    const socket = connect(name)
    const done = () => {
      socket.destroy()
      const pid = Number(answer.trim())
      resolve(Number.isInteger(pid) && pid > 0 ? pid : null)
    }
    socket.setTimeout(1000, done)
    socket.on('data', (chunk) => {
      answer += chunk
    })
    socket.on('end', done)
    socket.on('error', done)
  })
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()))
}

function lockWithFile(dataDir: string): DataDirLock {
  const file = join(dataDir, 'workgraph.lock')
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx', 0o600)
      writeSync(fd, String(process.pid))
      closeSync(fd)
      return {
        release: async () => {
          if (readHolder(file) === process.pid) rmSync(file, { force: true })
        },
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      const holder = readHolder(file)
      if (holder !== null && holder !== process.pid && isAlive(holder)) throw inUse(dataDir, holder)
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

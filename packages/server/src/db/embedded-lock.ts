import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import {
  closeSync,
  linkSync,
  openSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs'
import { connect, createServer, type Server, type Socket } from 'node:net'
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
 * one over. Any local process may bind any name, though, so the name is derived from a key kept
 * in the folder (readable by its owner alone), and a holder's word is trusted only when it proves
 * it knows that key: it answers a random challenge with an HMAC of it. A process that holds the
 * name without the proof is reported as what it is, not as Workgraph. Elsewhere a lock file
 * holding the pid is created exclusively and taken over when its process is gone; that takeover
 * is best effort when several processes start at the same moment.
 */
export async function lockDataDir(dataDir: string): Promise<DataDirLock> {
  if (process.platform === 'linux') return lockWithAbstractSocket(dataDir)
  return lockWithFile(dataDir)
}

function inUse(dataDir: string, holder: number): DataDirLockedError {
  return new DataDirLockedError(
    `The data folder ${dataDir} is in use by another Workgraph process (pid ${holder}). ` +
      'Stop that process first, or give this one its own folder with --data.',
  )
}

// The holder answers within this; a Workgraph process busy importing may take a moment.
const ANSWER_MS = 3000

async function lockWithAbstractSocket(dataDir: string): Promise<DataDirLock> {
  const key = lockKey(dataDir)
  const name = lockName(dataDir, key)
  const server = createServer((socket) => answerChallenges(socket, key))
  for (let attempt = 1; ; attempt++) {
    try {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject)
        server.listen(name, () => resolve())
      })
      break
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error
    }
    const holder = await askHolder(name, key)
    // Its holder ended between the two steps: the lock may be free now.
    if (holder.kind === 'gone' && attempt < 3) continue
    if (holder.kind === 'workgraph') throw inUse(dataDir, holder.pid)
    if (holder.kind === 'silent' || holder.kind === 'gone')
      throw new DataDirLockedError(
        `The data folder ${dataDir} is locked by a process that did not answer within ` +
          `${ANSWER_MS / 1000} s: a Workgraph process too busy to answer, or another program ` +
          'holding its lock. Wait and try again; `ss -xlp | grep workgraph-data` shows the holder.',
      )
    throw new DataDirLockedError(
      `The lock of the data folder ${dataDir} is held by a process that is not Workgraph: it ` +
        'cannot prove it may open the folder, and whatever it says of itself is not trusted. ' +
        'Nothing in the folder was touched. Find it with `ss -xlp | grep workgraph-data` and ' +
        'stop it, or use another folder with --data.',
    )
  }
  // Held from here on: a failed accept (too many open files, say) must not end the process.
  server.on('error', () => {})
  // The lock must not keep a process alive that has nothing else left to do.
  server.unref()
  return { release: () => closeServer(server) }
}

/**
 * The abstract socket name of a folder's lock: from its real path (two spellings of one folder
 * are one lock) and its key, so that one who cannot read the folder cannot name its lock.
 */
export function lockName(dataDir: string, key: Buffer): string {
  const digest = createHash('sha256')
    .update(realpathSync(dataDir))
    .update('\0')
    .update(key)
    .digest('hex')
    .slice(0, 40)
  return `\0workgraph-data-${digest}`
}

/**
 * The folder's lock key (`lock-key`, 32 random bytes, readable by its owner alone), made on first
 * use. Two processes making it at once agree: each writes its own file and links it into place,
 * and the link of all but the first fails.
 */
export function lockKey(dataDir: string): Buffer {
  const file = join(dataDir, 'lock-key')
  const read = () => Buffer.from(readFileSync(file, 'utf8').trim(), 'base64')
  try {
    return read()
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw unreadableKey(file, error)
  }
  const draft = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`
  try {
    writeFileSync(draft, randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' })
    linkSync(draft, file)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw unreadableKey(file, error)
  } finally {
    rmSync(draft, { force: true })
  }
  return read()
}

function unreadableKey(file: string, error: unknown): DataDirLockedError {
  const code = (error as NodeJS.ErrnoException).code ?? 'an error'
  return new DataDirLockedError(
    `Cannot read or create the data folder's lock key ${file} (${code}). The folder must be ` +
      'readable and writable by the user running Workgraph.',
  )
}

// A holder's side: each connection sends one challenge line; the answer proves the key.
function answerChallenges(socket: Socket, key: Buffer): void {
  // Any local process may connect; one that resets the connection must not end this one.
  socket.on('error', () => {})
  socket.setTimeout(ANSWER_MS, () => socket.destroy())
  let challenge = ''
  socket.on('data', (chunk) => {
    challenge += chunk
    if (challenge.length > 200) return socket.destroy()
    const end = challenge.indexOf('\n')
    if (end < 0) return
    const nonce = challenge.slice(0, end)
    socket.end(`${process.pid} ${proof(key, nonce, process.pid)}\n`)
  })
}

function proof(key: Buffer, nonce: string, pid: number): string {
  return createHmac('sha256', key).update(`workgraph-lock ${nonce} ${pid}`).digest('hex')
}

type Holder =
  | { kind: 'workgraph'; pid: number }
  | { kind: 'squatter' }
  | { kind: 'silent' }
  | { kind: 'gone' }

// Who holds the name: a Workgraph process of this folder proves it with the key.
function askHolder(name: string, key: Buffer): Promise<Holder> {
  return new Promise((resolve) => {
    const nonce = randomBytes(16).toString('hex')
    let answer = ''
    let settled = false
    const socket = connect(name)
    const done = (holder: Holder) => {
      if (settled) return
      settled = true
      socket.destroy()
      resolve(holder)
    }
    const judge = () => {
      const [pidText, given] = answer.trim().split(' ')
      const pid = Number(pidText)
      const expected = Buffer.from(proof(key, nonce, pid))
      const ok =
        Number.isInteger(pid) &&
        pid > 0 &&
        given !== undefined &&
        given.length === expected.length &&
        timingSafeEqual(Buffer.from(given), expected)
      done(ok ? { kind: 'workgraph', pid } : { kind: 'squatter' })
    }
    socket.setTimeout(ANSWER_MS, () => done(answer ? { kind: 'squatter' } : { kind: 'silent' }))
    socket.on('connect', () => socket.write(`${nonce}\n`))
    socket.on('data', (chunk) => {
      answer += chunk
      if (answer.length > 200) done({ kind: 'squatter' })
      else if (answer.includes('\n')) judge()
    })
    socket.on('end', judge)
    socket.on('error', (error: NodeJS.ErrnoException) =>
      done(error.code === 'ECONNREFUSED' ? { kind: 'gone' } : { kind: 'squatter' }),
    )
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

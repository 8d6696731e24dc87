import { createHash } from 'node:crypto'
import { chmodSync, mkdtempSync, renameSync, rmSync } from 'node:fs'
import { connect, createServer, type Socket } from 'node:net'
import { join, resolve } from 'node:path'
import { BackupFailure } from './backup-failure.ts'

/*
 * How `workgraph backup` gets a snapshot of an embedded database that a running `serve` holds
 * (docs/operations.md, "Backups and restore"). PGlite lives inside the server's process and keeps
 * pages in its memory, so no other process can read the folder consistently; the server takes the
 * snapshot itself and hands it over on a Unix domain socket in the data folder, `backup.sock`,
 * which it listens on while it holds the folder's lock. The socket is the file system's to guard:
 * mode 0600, so only the user who owns the folder's files may connect, as only they may read
 * them. It is made in a private folder (0700) and renamed into place, so it is never open to
 * others for an instant, whatever the umask.
 *
 * One request and its answer per connection: the client sends `snapshot\n`; the server answers
 * one JSON line, `{"ok":true,"bytes":N,"sha256":"…"}` followed by the N bytes, or
 * `{"ok":false,"message":"…"}`. The length and digest let the client tell a whole snapshot from one
 * cut short by the server's end, before it renames anything into place.
 */

/** The socket's name in the data folder. */
export const SNAPSHOT_SOCKET = 'backup.sock'

// sun_path holds 108 bytes on Linux (104 on macOS), its terminating NUL included.
const MAX_SOCKET_PATH = process.platform === 'linux' ? 107 : 103

const REQUEST = 'snapshot'

/** What a server tells its owner of the snapshots it hands out. */
export interface SnapshotEvents {
  taken(bytes: number): void
  failed(error: unknown): void
}

/** The channel a server offers, or why it offers none. */
export type SnapshotOffer = { close(): Promise<void> } | { unavailable: string }

/**
 * Listens on the data folder's snapshot socket until closed; `take` makes one snapshot. Only the
 * holder of the folder's lock may call it, so a socket file left by a process that was killed is
 * its own to remove.
 */
export async function offerSnapshots(
  dataDir: string,
  take: () => Promise<Buffer>,
  events: SnapshotEvents,
): Promise<SnapshotOffer> {
  const path = socketPath(dataDir)
  if (process.platform === 'win32') return { unavailable: 'Windows has no such sockets' }
  if (Buffer.byteLength(path) > MAX_SOCKET_PATH)
    return {
      unavailable: `the data folder's path is too long for a socket in it (${MAX_SOCKET_PATH} bytes at most)`,
    }
  rmSync(path, { force: true })
  let busy = false
  const server = createServer((socket) => {
    socket.on('error', () => {})
    readRequest(socket, async () => {
      if (busy) return refuse(socket, 'Another backup of this folder is being taken; try again.')
      busy = true
      try {
        const snapshot = await take()
        const digest = createHash('sha256').update(snapshot).digest('hex')
        socket.write(`${JSON.stringify({ ok: true, bytes: snapshot.length, sha256: digest })}\n`)
        socket.end(snapshot)
        events.taken(snapshot.length)
      } catch (error) {
        events.failed(error)
        refuse(socket, `The server could not take the snapshot: ${(error as Error).message}`)
      } finally {
        busy = false
      }
    })
  })
  // A failed accept (too many open files) must not end the server.
  server.on('error', (error) => events.failed(error))
  const privateDir = mkdtempSync(join(resolve(dataDir), '.bk-'))
  try {
    const draft = join(privateDir, 's')
    await new Promise<void>((done, fail) => {
      server.once('error', fail)
      server.listen(draft, () => {
        server.off('error', fail)
        done()
      })
    })
    chmodSync(draft, 0o600)
    renameSync(draft, path)
  } catch (error) {
    server.close()
    return { unavailable: (error as Error).message }
  } finally {
    rmSync(privateDir, { recursive: true, force: true })
  }
  return {
    close: async () => {
      await new Promise<void>((done) => server.close(() => done()))
      rmSync(path, { force: true })
    },
  }
}

/** No process offers snapshots of the folder: no server holds it, or one that does not offer. */
export class NoSnapshotChannel extends Error {}

/** The server refused or failed; its message is for the operator. */
export class SnapshotRefused extends BackupFailure {}

// Time without a byte before a client gives up: the server reads the whole folder before its
// first one, so this is for a server that hangs, not a slow one.
const IDLE_MS = 10 * 60_000

/** Asks the server holding `dataDir` for a snapshot: an embedded backup's bytes, checked whole. */
export function requestSnapshot(dataDir: string): Promise<Buffer> {
  return new Promise((resolvePromise, reject) => {
    const socket = connect(socketPath(dataDir))
    const chunks: Buffer[] = []
    let settled = false
    const settle = (outcome: Buffer | Error) => {
      if (settled) return
      settled = true
      socket.destroy()
      if (outcome instanceof Error) reject(outcome)
      else resolvePromise(outcome)
    }
    socket.setTimeout(IDLE_MS, () =>
      settle(new SnapshotRefused('The server holding the folder stopped answering.')),
    )
    socket.on('connect', () => socket.write(`${REQUEST}\n`))
    socket.on('data', (chunk) => chunks.push(chunk))
    socket.on('error', (error: NodeJS.ErrnoException) =>
      settle(
        error.code === 'ENOENT' || error.code === 'ECONNREFUSED'
          ? new NoSnapshotChannel(error.code)
          : new SnapshotRefused(`Cannot reach the server holding the folder: ${error.message}`),
      ),
    )
    socket.on('end', () => settle(readAnswer(Buffer.concat(chunks))))
  })
}

// The snapshot in an answer, or why there is none.
function readAnswer(answer: Buffer): Buffer | Error {
  const end = answer.indexOf(0x0a)
  let header: { ok?: boolean; bytes?: number; sha256?: string; message?: string }
  try {
    header = JSON.parse(answer.subarray(0, end < 0 ? 0 : end).toString('utf8'))
  } catch {
    return new SnapshotRefused('The server holding the folder gave no answer.')
  }
  if (!header.ok) return new SnapshotRefused(header.message ?? 'The server refused.')
  const snapshot = answer.subarray(end + 1)
  const digest = createHash('sha256').update(snapshot).digest('hex')
  if (snapshot.length !== header.bytes || digest !== header.sha256)
    return new SnapshotRefused(
      `The snapshot arrived incomplete (${snapshot.length} of ${header.bytes} bytes): the server may have stopped. Nothing was written.`,
    )
  return snapshot
}

function socketPath(dataDir: string): string {
  return join(resolve(dataDir), SNAPSHOT_SOCKET)
}

// Calls `run` once the connection has sent the one request it may send.
function readRequest(socket: Socket, run: () => Promise<void>): void {
  let received = ''
  socket.setTimeout(5_000, () => socket.destroy())
  socket.on('data', (chunk) => {
    received += chunk
    if (received.length > 64) return socket.destroy()
    const end = received.indexOf('\n')
    if (end < 0) return
    socket.removeAllListeners('data')
    socket.setTimeout(0)
    if (received.slice(0, end) !== REQUEST) return refuse(socket, 'Unknown request.')
    void run()
  })
}

function refuse(socket: Socket, message: string): void {
  socket.end(`${JSON.stringify({ ok: false, message })}\n`)
}

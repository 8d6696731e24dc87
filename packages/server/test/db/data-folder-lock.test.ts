import assert from 'node:assert/strict'
import { type ChildProcessByStdio, spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface, type Interface } from 'node:readline'
import type { Readable, Writable } from 'node:stream'
import { after, test } from 'node:test'
import { DataDirLockedError, lockDataDir, lockKey, lockName } from '../../src/db/embedded-lock.ts'
import { runCaptured } from '../harness/cli.ts'
import { ENGINE } from '../harness/test-database.ts'

// Processes race for one data folder's lock, again and again, sometimes just after its holder was
// killed with SIGKILL: every race must end with exactly one holder. The lock is the embedded
// database's, whatever engine the suite runs, so it runs with the PGlite suite only.
const skip = ENGINE !== 'pglite' && 'the data-folder lock guards the embedded database'

const CONTENDER = join(import.meta.dirname, '..', 'harness', 'lock-contender.ts')
const TRIALS = 200
const CONTENDERS = 4
const dir = mkdtempSync(join(tmpdir(), 'workgraph-lock-'))
after(() => rmSync(dir, { recursive: true, force: true }))

interface Contender {
  child: ChildProcessByStdio<Writable, Readable, null>
  next(): Promise<string>
}

function startContender(folder = dir): Contender {
  const child = spawn(process.execPath, [CONTENDER, folder], { stdio: ['pipe', 'pipe', 'inherit'] })
  const lines: Interface = createInterface({ input: child.stdout })
  const iterator = lines[Symbol.asyncIterator]()
  return {
    child,
    async next() {
      const { value, done } = await iterator.next()
      if (done) throw new Error('a contender ended')
      return value
    },
  }
}

async function ask(contender: Contender, command: string): Promise<string> {
  contender.child.stdin.write(`${command}\n`)
  return contender.next()
}

test(`${CONTENDERS} processes racing for a data folder ${TRIALS} times: exactly one holder each time`, {
  skip,
}, async () => {
  const contenders = Array.from({ length: CONTENDERS }, startContender)
  try {
    for (const contender of contenders) assert.equal(await contender.next(), 'ready')
    for (let trial = 0; trial < TRIALS; trial++) {
      // Every tenth race starts right after the holder was killed, as a crash leaves it.
      if (trial % 10 === 0) {
        const doomed = startContender()
        assert.equal(await doomed.next(), 'ready')
        assert.equal(await ask(doomed, 'take'), 'held')
        doomed.child.kill('SIGKILL')
        await new Promise((resolve) => doomed.child.once('exit', resolve))
      }
      const answers = await Promise.all(contenders.map((contender) => ask(contender, 'take')))
      const holders = answers.filter((answer) => answer === 'held').length
      assert.equal(holders, 1, `trial ${trial}: ${answers.join(', ')}`)
      await Promise.all(
        contenders.map(async (contender, i) => {
          if (answers[i] === 'held') assert.equal(await ask(contender, 'release'), 'released')
        }),
      )
    }
  } finally {
    for (const contender of contenders) contender.child.kill()
  }
})

/** Another program bound to an abstract socket name, answering every connection with `says`. */
async function squat(name: string, says: string): Promise<Server> {
  const server = createServer((socket) => {
    socket.on('error', () => {})
    socket.end(says)
  })
  await new Promise<void>((resolve) => server.listen(name, resolve))
  return server
}

// Not awaited: a connection the lock's question left half-closed would hold the callback.
const close = (server: Server) => void server.close()

test("a program that took the name a folder's path alone would give does not lock it", {
  skip,
}, async () => {
  const folder = join(dir, 'by-path')
  mkdirSync(folder)
  const digest = createHash('sha256').update(realpathSync(folder)).digest('hex').slice(0, 40)
  const squatter = await squat(`\0workgraph-data-${digest}`, '4242')
  try {
    const lock = await lockDataDir(folder)
    await lock.release()
  } finally {
    close(squatter)
  }
})

test("a program holding the lock without proving the folder's key is reported as not Workgraph", {
  skip,
}, async () => {
  const folder = join(dir, 'squatted')
  mkdirSync(folder)
  // It read the key (it runs as the same user) or saw the name while a server held it.
  const squatter = await squat(lockName(folder, lockKey(folder)), '4242 0123456789abcdef\n')
  try {
    await assert.rejects(lockDataDir(folder), (error: Error) => {
      assert.ok(error instanceof DataDirLockedError)
      assert.match(error.message, /not Workgraph/)
      assert.doesNotMatch(error.message, /4242/, 'its own word about itself is not repeated')
      return true
    })
    // `serve` says so and exits, naming no pid.
    const served = await runCaptured(['serve', '--data', folder, '--port', '0'])
    assert.equal(served.code, 1, served.stderr)
    assert.match(served.stderr, /not Workgraph/)
    assert.doesNotMatch(served.stderr, /4242/)
  } finally {
    close(squatter)
  }
})

test('a Workgraph process holding the folder proves it, and is named by its pid', {
  skip,
}, async () => {
  const folder = join(dir, 'held')
  mkdirSync(folder)
  const held = startContender(folder)
  try {
    assert.equal(await held.next(), 'ready')
    assert.equal(await ask(held, 'take'), 'held')
    await assert.rejects(
      lockDataDir(folder),
      new RegExp(`Workgraph process \\(pid ${held.child.pid}\\)`),
    )
  } finally {
    held.child.kill()
  }
})

import assert from 'node:assert/strict'
import { type ChildProcessByStdio, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface, type Interface } from 'node:readline'
import type { Readable, Writable } from 'node:stream'
import { after, test } from 'node:test'
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

function startContender(): Contender {
  const child = spawn(process.execPath, [CONTENDER, dir], { stdio: ['pipe', 'pipe', 'inherit'] })
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

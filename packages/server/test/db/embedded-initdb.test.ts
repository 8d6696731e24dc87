import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, test } from 'node:test'
import { initEmbeddedDataDir } from '../../src/db/embedded-initdb.ts'
import { childrenOf, endsWithin } from '../harness/processes.ts'
import { ENGINE } from '../harness/test-database.ts'

// Creating the embedded database is all or nothing: drafts of a killed attempt never become the
// database, its child never goes on alone, and a half-made folder is named rather than removed.

const skip = ENGINE !== 'pglite' && 'the embedded database: its suite runs it'
const dir = mkdtempSync(join(tmpdir(), 'workgraph-initdb-'))
after(() => rmSync(dir, { recursive: true, force: true }))

test('a draft left by a killed attempt is removed, and the database is made whole', {
  skip,
}, () => {
  const folder = join(dir, 'fresh')
  mkdirSync(join(folder, 'pgdata.init-stale'), { recursive: true })
  writeFileSync(join(folder, 'pgdata.init-stale', 'junk'), 'x')
  initEmbeddedDataDir(join(folder, 'pgdata'))
  assert.ok(existsSync(join(folder, 'pgdata', 'PG_VERSION')))
  assert.deepEqual(readdirSync(folder), ['pgdata'])
})

test('a folder holding a database never finished is named, never removed', { skip }, () => {
  const pgdata = join(dir, 'half', 'pgdata')
  mkdirSync(pgdata, { recursive: true })
  writeFileSync(join(pgdata, 'base'), 'something')
  assert.throws(() => initEmbeddedDataDir(pgdata), /never finished/)
  assert.ok(existsSync(join(pgdata, 'base')))
})

test('kill -9 of the process creating the database ends its child; nothing is left as the database', {
  skip,
}, async () => {
  const folder = join(dir, 'killed')
  mkdirSync(folder)
  const script = join(dir, 'init.ts')
  writeFileSync(
    script,
    `import { initEmbeddedDataDir } from ${JSON.stringify(join(import.meta.dirname, '../../src/db/embedded-initdb.ts'))}\ninitEmbeddedDataDir(${JSON.stringify(join(folder, 'pgdata'))})\n`,
  )
  const parent = spawn(process.execPath, [script], { stdio: 'ignore' })
  let child: number | undefined
  for (let i = 0; i < 400 && !child; i++) {
    child = childrenOf(parent.pid as number)[0]
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  assert.ok(child, 'the initdb child started')
  process.kill(parent.pid as number, 'SIGKILL')
  assert.ok(await endsWithin(child, 30_000), 'the child went on alone')
  assert.ok(!existsSync(join(folder, 'pgdata')), 'a half-made database took the name')
  // The next start makes it whole.
  initEmbeddedDataDir(join(folder, 'pgdata'))
  assert.ok(existsSync(join(folder, 'pgdata', 'PG_VERSION')))
})

import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, statfsSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, test } from 'node:test'
import type { ImportResult } from '../../src/bundle/import-bundle.ts'
import { type DatabaseHandle, openDatabase } from '../../src/db/connect.ts'
import { migrateToLatest } from '../../src/db/migrate.ts'
import { importOk, tokenOf, writableBundle } from '../harness/bundles.ts'
import { client, startTestApp, type TestApp } from '../harness/test-app.ts'
import { ENGINE } from '../harness/test-database.ts'

// The embedded database on a disk that fills up (a small tmpfs this test mounts): every write
// that finds no room is a 503 with Retry-After that wrote nothing, /readyz says not ready, and
// once space is freed both come back on their own (docs/configuration.md, "Bounded waits").

const mount = mkdtempSync(join(tmpdir(), 'workgraph-full-'))
const mounted = (() => {
  if (ENGINE !== 'pglite') return false
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=96m', 'tmpfs', mount], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
})()
const skip =
  ENGINE !== 'pglite'
    ? 'a full disk of the embedded database: its suite runs it'
    : !mounted && 'mounting a tmpfs needs root (as CI has)'

let handle: DatabaseHandle
let t: TestApp
let ws: ImportResult
const data = join(mount, 'data')
const filler = join(mount, 'filler')
before(async () => {
  if (skip) return
  mkdirSync(data)
  handle = await openDatabase({ kind: 'embedded', dataDir: data })
  await migrateToLatest(handle.db)
  t = await startTestApp({ database: { ...handle, url: undefined }, env: { WORKGRAPH_DATA: data } })
  ws = await importOk(t.db.db, writableBundle())
})
after(async () => {
  if (!skip) {
    await t.close()
    await handle.close()
  }
  if (mounted) execFileSync('umount', [mount])
  rmSync(mount, { recursive: true, force: true })
})

/** Fills the disk but for `spare` bytes. */
function fill(spare: number) {
  const disk = statfsSync(mount)
  const free = disk.bavail * disk.bsize
  writeFileSync(filler, Buffer.alloc(Math.max(0, free - spare)))
}

const writeTask = (i: number) =>
  client(t.app, tokenOf(ws, 'alice-key')).post('/v1/tasks', {
    title: `Filling ${i}`,
    description: 'x'.repeat(8_000) + String(i),
  })

test('writes on a full disk are 503s that wrote nothing; readiness follows; space freed, both recover', {
  skip,
}, async () => {
  fill(256 * 1024)
  const statuses = new Map<number, number>()
  let refused = 0
  for (let i = 0; i < 200 && refused < 5; i++) {
    const reply = await writeTask(i)
    statuses.set(reply.status, (statuses.get(reply.status) ?? 0) + 1)
    assert.ok(reply.status === 201 || reply.status === 503, `${reply.status}: ${reply.body}`)
    if (reply.status === 503) {
      refused++
      assert.equal(reply.json.code, 'service_unavailable')
      assert.match(reply.json.detail, /disk is full/)
      assert.ok(Number(reply.headers['retry-after']) >= 1)
      const written = await t.db.db
        .selectFrom('tasks')
        .select('id')
        .where('title', '=', `Filling ${i}`)
        .execute()
      assert.equal(written.length, 0, 'a refused write wrote nothing')
    }
  }
  assert.ok(refused > 0, `no write was refused: ${JSON.stringify([...statuses])}`)
  const ready = await client(t.app).get('/readyz')
  assert.equal(ready.status, 503, ready.body)
  rmSync(filler)
  assert.equal((await client(t.app).get('/readyz')).status, 200)
  assert.equal((await writeTask(1000)).status, 201)
})

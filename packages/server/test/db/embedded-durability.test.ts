import assert from 'node:assert/strict'
import fs, { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, test } from 'node:test'
import { sql } from 'kysely'
import { openDatabase } from '../../src/db/connect.ts'
import { migrateToLatest } from '../../src/db/migrate.ts'
import { ENGINE } from '../harness/test-database.ts'

// The embedded database's commits wait for the disk unless EMBEDDED_FSYNC says otherwise
// (docs/configuration.md): PostgreSQL's fsync calls reach the file system, which PGlite's own
// file layer would otherwise drop. Counted here at Node's fsync, which is where they land.

const skip = ENGINE !== 'pglite' && 'the embedded database: its suite runs it'
const dir = mkdtempSync(join(tmpdir(), 'workgraph-durable-'))
after(() => rmSync(dir, { recursive: true, force: true }))

/** How many fsyncs a commit of one row costs, on a data folder opened durable or not. */
async function fsyncsOfACommit(durable: boolean): Promise<{ count: number; settings: string[] }> {
  const handle = await openDatabase({
    kind: 'embedded',
    dataDir: join(dir, String(durable)),
    durable,
  })
  try {
    await migrateToLatest(handle.db)
    const settings = []
    for (const name of ['fsync', 'wal_sync_method'])
      settings.push(
        (await sql.raw<{ v: string }>(`select current_setting('${name}') as v`).execute(handle.db))
          .rows[0]?.v as string,
      )
    const real = fs.fsyncSync
    let count = 0
    fs.fsyncSync = (fd: number) => {
      count++
      real(fd)
    }
    try {
      await sql`create table if not exists probe (n int)`.execute(handle.db)
      count = 0
      await sql`insert into probe values (1)`.execute(handle.db)
    } finally {
      fs.fsyncSync = real
    }
    return { count, settings }
  } finally {
    await handle.close()
  }
}

test('durable: a commit is synced to the disk before it is acknowledged', { skip }, async () => {
  const { count, settings } = await fsyncsOfACommit(true)
  assert.deepEqual(settings, ['on', 'fsync'])
  assert.ok(count >= 1, `${count} fsyncs`)
})

test('EMBEDDED_FSYNC=false: nothing waits for the disk', { skip }, async () => {
  const { count, settings } = await fsyncsOfACommit(false)
  assert.equal(settings[0], 'off')
  assert.equal(count, 0)
})

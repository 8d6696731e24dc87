import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import pg from 'pg'
import { type DatabaseHandle, openDatabase } from '../../src/db/connect.ts'

/** The engine this run tests (set by scripts/run-tests.ts). */
export const ENGINE: 'pglite' | 'postgres' =
  process.env.WORKGRAPH_TEST_ENGINE === 'postgres' ? 'postgres' : 'pglite'

/** A migrated database of its own for one test file, and how to reach it from other processes. */
export interface TestDatabase extends DatabaseHandle {
  /** A connection string for other processes; PostgreSQL only. */
  readonly url: string | undefined
}

/**
 * A fresh, migrated database for the calling test file: a PGlite clone of the run's template, or a
 * PostgreSQL database created from the run's template (and dropped on close).
 */
export async function openTestDatabase(): Promise<TestDatabase> {
  if (ENGINE === 'pglite') {
    const template = process.env.WORKGRAPH_TEST_PGLITE_TEMPLATE
    if (!template) throw new Error('Run tests with `npm test` (it prepares the database template).')
    const handle = await openDatabase({
      kind: 'embedded-clone',
      dump: new Blob([readFileSync(template)]),
    })
    return { ...handle, url: undefined, close: () => handle.close() }
  }
  const adminUrl = process.env.WORKGRAPH_TEST_POSTGRES_URL as string
  const template = process.env.WORKGRAPH_TEST_POSTGRES_TEMPLATE as string
  const name = `${template.replace(/_template$/, '')}_${randomBytes(4).toString('hex')}`
  const admin = new pg.Client({ connectionString: adminUrl })
  await admin.connect()
  // Copies from one template must not overlap; the lock is released with the session.
  await admin.query(`select pg_advisory_lock(4242)`)
  await admin.query(`create database "${name}" template "${template}"`)
  await admin.query(`select pg_advisory_unlock(4242)`)
  // A test database lives as long as its file and never outlives a crash of PostgreSQL itself,
  // so its commits need not wait for the disk: that wait was much of the PostgreSQL suite's time.
  await admin.query(`alter database "${name}" set synchronous_commit = off`)
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  let closing = false
  const handle = await openDatabase({
    kind: 'postgres',
    url: url.toString(),
    // pg's pool.end() resolves before sockets close, so the forced drop below may still reach
    // them; any other lost connection is a real failure.
    onConnectionError: (error) => {
      if (!closing) throw error
    },
  })
  return {
    ...handle,
    url: url.toString(),
    async close() {
      closing = true
      await handle.close()
      await admin.query(`drop database if exists "${name}" with (force)`)
      await admin.end()
    },
  }
}

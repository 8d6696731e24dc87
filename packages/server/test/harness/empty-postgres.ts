import { randomBytes } from 'node:crypto'
import pg from 'pg'

/** A database of its own on the suite's PostgreSQL, and how to drop it. */
export interface EmptyPostgres {
  readonly url: string
  close(): Promise<void>
}

/**
 * A new PostgreSQL database with nothing in it, not even the schema (the run's template has it):
 * what `restore` and `move` are given. It carries the run's prefix, so a run that stops early
 * drops it all the same (scripts/run-tests.ts). PostgreSQL suite only.
 */
export async function emptyPostgres(): Promise<EmptyPostgres> {
  const adminUrl = process.env.WORKGRAPH_TEST_POSTGRES_URL
  const template = process.env.WORKGRAPH_TEST_POSTGRES_TEMPLATE
  if (!adminUrl || !template) throw new Error('emptyPostgres runs in the PostgreSQL suite only')
  const name = `${template.replace(/_template$/, '')}_empty_${randomBytes(4).toString('hex')}`
  const admin = new pg.Client({ connectionString: adminUrl })
  await admin.connect()
  await admin.query(`create database "${name}"`)
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  return {
    url: url.toString(),
    async close() {
      await admin.query(`drop database if exists "${name}" with (force)`)
      await admin.end()
    },
  }
}

/**
 * `npm run bench:relevance`: the judged questions (questions.ts) against the demo workspace, on
 * PGlite and on PostgreSQL (`DATABASE_URL`, or the local server), each in a throwaway database.
 *
 *   npm run bench:relevance -- [--engines pglite,postgres]
 */
import { parseArgs } from 'node:util'
import { PGlite } from '@electric-sql/pglite'
import pg from 'pg'
import { openDatabase } from '../../packages/server/src/db/connect.ts'
import { migrateToLatest } from '../../packages/server/src/db/migrate.ts'
import { benchRelevance, formatRelevance, type RelevanceResult } from './relevance.ts'

const { values } = parseArgs({
  options: { engines: { type: 'string', default: 'pglite,postgres' } },
})

/** Scores one engine in a fresh database of its own. */
export async function relevanceOn(engine: string): Promise<RelevanceResult> {
  if (engine === 'pglite') {
    const blank = new PGlite()
    await blank.waitReady
    const handle = await openDatabase({
      kind: 'embedded-clone',
      dump: await blank.dumpDataDir('none'),
    })
    await blank.close()
    try {
      await migrateToLatest(handle.db)
      return await benchRelevance(handle.db, engine)
    } finally {
      await handle.close()
    }
  }
  const adminUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
  const admin = new pg.Client({ connectionString: adminUrl })
  await admin.connect()
  const name = `wg_relevance_${process.pid}`
  await admin.query(`drop database if exists ${name} with (force)`)
  await admin.query(`create database ${name}`)
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  const handle = await openDatabase({ kind: 'postgres', url: url.toString() })
  try {
    await migrateToLatest(handle.db)
    return await benchRelevance(handle.db, engine)
  } finally {
    await handle.close()
    await admin.query(`drop database if exists ${name} with (force)`)
    await admin.end()
  }
}

if (import.meta.main) {
  const results: RelevanceResult[] = []
  for (const engine of values.engines.split(',')) results.push(await relevanceOn(engine))
  console.log(formatRelevance(results))
}

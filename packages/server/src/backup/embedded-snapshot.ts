import { sql } from 'kysely'
import type { DatabaseHandle } from '../db/connect.ts'
import { packEmbeddedArchive } from './embedded-archive.ts'

/**
 * A consistent copy of an open embedded database, as an embedded backup's bytes.
 *
 * PGlite's `dumpDataDir` reads the database's files as they are at that moment. It is consistent
 * here because the pool has one connection and this holds it: every request's transaction has
 * ended and none can start, so the copy is taken between two transactions, and it holds every
 * one committed before. The CHECKPOINT first writes every changed page into the table files, so
 * the copy is a database that starts without replaying its log. Requests wait for the connection
 * meanwhile, as for any statement (`DB_POOL_WAIT_MS`); compressing happens after it is released.
 */
export async function snapshotEmbedded(handle: DatabaseHandle): Promise<Buffer> {
  const { pglite } = handle
  if (!pglite) throw new Error('snapshotEmbedded needs the embedded database')
  const tar = await handle.db.connection().execute(async (connection) => {
    await sql`checkpoint`.execute(connection)
    const dump = await pglite.dumpDataDir('none')
    return Buffer.from(await dump.arrayBuffer())
  })
  return packEmbeddedArchive(tar)
}

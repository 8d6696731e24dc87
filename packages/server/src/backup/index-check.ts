import { sql } from 'kysely'
import { syncResourceIndex } from '../access/resource-index.ts'
import type { Db } from '../db/database.ts'
import type { TableShape } from './table-catalogue.ts'
import { tableSum } from './table-checksums.ts'

/** What rebuilding the search index on the moved rows showed. */
export interface IndexCheck {
  /** Rows of the moved index. */
  readonly rows: number
  /** The index compiled again from the moved rows is the moved index, row for row. */
  readonly rebuiltSame: boolean
  /** Compiling it added no word to the vocabulary typo tolerance reads: none was missing. */
  readonly vocabularyComplete: boolean
}

/**
 * Throws each workspace's search index away and compiles it again from the moved source rows with
 * the server's own code (`syncResourceIndex`, as every write does), then compares it with the
 * index that was moved; the vocabulary must gain no word. Inside a savepoint that is rolled back,
 * so the moved rows stay exactly as moved. Call it in the move's transaction.
 */
export async function checkRebuiltIndex(
  trx: Db,
  index: TableShape,
  vocabulary: TableShape,
): Promise<IndexCheck> {
  const moved = await tableSum(trx, index)
  const words = await tableSum(trx, vocabulary)
  await sql`savepoint index_check`.execute(trx)
  try {
    const workspaces = await trx.selectFrom('workspaces').select('id').execute()
    for (const { id } of workspaces) {
      await trx.deleteFrom('resource_index').where('workspace_id', '=', id).execute()
      await syncResourceIndex(trx, id, { all: true })
    }
    const rebuilt = await tableSum(trx, index)
    const wordsAfter = await tableSum(trx, vocabulary)
    return {
      rows: moved.rows,
      rebuiltSame: rebuilt.rows === moved.rows && rebuilt.checksum === moved.checksum,
      vocabularyComplete: wordsAfter.rows === words.rows && wordsAfter.checksum === words.checksum,
    }
  } finally {
    await sql`rollback to savepoint index_check`.execute(trx)
  }
}

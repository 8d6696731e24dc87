import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { sql } from 'kysely'
import { authenticateToken } from '../../src/access/authenticate-token.ts'
import type { ImportResult } from '../../src/bundle/import-bundle.ts'
import { preparedName } from '../../src/db/prepared-statements.ts'
import { importOk, tokenOf, writableBundle } from '../harness/bundles.ts'
import { openTestDatabase, type TestDatabase } from '../harness/test-database.ts'

let t: TestDatabase
let ws: ImportResult

before(async () => {
  t = await openTestDatabase()
  ws = await importOk(t.db, writableBundle())
})
after(() => t.close())

test('a marked statement is prepared once per connection and reused, unmarked ones never', async () => {
  const prepared = await t.db.transaction().execute(async (trx) => {
    for (let run = 0; run < 3; run++) {
      const identity = await authenticateToken(trx, tokenOf(ws, 'alice-key'), new Date())
      assert.equal(typeof identity, 'object', 'the prepared lookup still finds the key')
    }
    const { rows } = await sql<{
      name: string
      statement: string
    }>`select name, statement from pg_prepared_statements where name like 'wg\\_%'`.execute(trx)
    return rows
  })
  const lookups = prepared.filter((row) => row.statement.includes('secret_hash'))
  assert.equal(lookups.length, 1, 'one prepared statement for the token lookup')
  assert.equal(lookups[0]?.name, preparedName(lookups[0]?.statement ?? ''))
  assert.equal(preparedName('select 1'), null)
})

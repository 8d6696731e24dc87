import assert from 'node:assert/strict'
import { test } from 'node:test'
import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  sql,
} from 'kysely'
import { EmptyListsPlugin } from './empty-lists.ts'

interface Tables {
  things: { id: string; kind: string }
}

const db = new Kysely<Tables>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (k) => new PostgresIntrospector(k),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
  plugins: [new EmptyListsPlugin()],
})

const compiled = (query: { compile(): { sql: string } }) => query.compile().sql

test('a comparison with an empty list becomes what it means; others are left alone', () => {
  const things = db.selectFrom('things').select('id')
  assert.equal(compiled(things.where('id', 'in', [])), 'select "id" from "things" where false')
  assert.equal(
    compiled(things.where('id', 'not in', []).where('kind', '=', 'x')),
    'select "id" from "things" where true and "kind" = $1',
  )
  assert.equal(
    compiled(things.where((eb) => eb.or([eb('id', 'in', []), eb('kind', 'in', ['a', 'b'])]))),
    'select "id" from "things" where (false or "kind" in ($1, $2))',
  )
  assert.equal(
    compiled(
      things.where('id', 'in', db.selectFrom('things').select('id').where('kind', 'in', [])),
    ),
    'select "id" from "things" where "id" in (select "id" from "things" where false)',
  )
  assert.equal(
    compiled(things.where(sql<boolean>`id = any(${[]})`)),
    'select "id" from "things" where id = any($1)',
  )
})

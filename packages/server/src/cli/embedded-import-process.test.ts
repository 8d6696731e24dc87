import assert from 'node:assert/strict'
import { test } from 'node:test'
import { embeddedImportChildArgs } from './embedded-import-process.ts'

const ENTRY = '/srv/workgraph/main.ts'
const args = (argv: string[], env: NodeJS.ProcessEnv = {}, execArgv: string[] = []) =>
  embeddedImportChildArgs(argv, env, execArgv, ENTRY)

test('an import into the embedded database runs in a child compiled by Liftoff only', () => {
  assert.deepEqual(args(['import', 'b.json'], {}, ['--enable-source-maps']), [
    '--enable-source-maps',
    '--liftoff-only',
    '--max-semi-space-size=16',
    ENTRY,
    'import',
    'b.json',
  ])
  // A young generation given on the command line is kept.
  assert.deepEqual(args(['import', 'b.json'], {}, ['--max-semi-space-size=64']), [
    '--max-semi-space-size=64',
    '--liftoff-only',
    ENTRY,
    'import',
    'b.json',
  ])
  // --data wins over DATABASE_URL, as in loadConfig.
  const url = { DATABASE_URL: 'postgres://db/x' }
  assert.ok(args(['import', 'b.json', '--data', 'd'], url))
  assert.ok(args(['import', 'b.json', '--data=d'], url))
})

test('other commands, PostgreSQL and a Liftoff-only process run in place', () => {
  assert.equal(args(['serve', '--data', 'd']), null)
  assert.equal(args(['import', 'b.json', '--database-url', 'postgres://db/x']), null)
  assert.equal(args(['import', 'b.json', '--database-url=postgres://db/x']), null)
  assert.equal(args(['import', 'b.json'], { DATABASE_URL: 'postgres://db/x' }), null)
  assert.equal(args(['import', 'b.json'], {}, ['--liftoff-only']), null)
  assert.equal(embeddedImportChildArgs(['import', 'b.json'], {}, [], undefined), null)
})

import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { Bundle } from '../../src/bundle/bundle.schema.ts'
import { hashPassword } from '../../src/lib/password.ts'
import { setEmailPassword } from '../../src/web/email-passwords.ts'
import { matchSignIn } from '../../src/web/sign-in.ts'
import { importOk } from '../harness/bundles.ts'
import { openTestDatabase, type TestDatabase } from '../harness/test-database.ts'

// One password per email across the server's workspaces (docs/dashboard.md, "Signing in"): how
// imports, set-password and data from before keep to it, and what sign-in opens.

const FIRST = 'the first long passphrase'
const OTHER = 'another long passphrase'

let t: TestDatabase
before(async () => {
  t = await openTestDatabase()
})
after(() => t.close())

function oneMember(workspace: string, email: string, password?: string): Bundle {
  return {
    format: 'workgraph.bundle/v1',
    workspace: { key: 'w', name: workspace },
    people: [{ key: 'p', name: 'P', email, role: 'member', ...(password ? { password } : {}) }],
  }
}

const workspacesOf = async (email: string, password: string, client: string | null = null) =>
  (await matchSignIn(t.db, email, password, client)).map((match) => match.workspaceName).sort()

test("an import never changes an email's password: a known email keeps its own", async () => {
  await importOk(t.db, oneMember('Alpha', 'kim@example.test', FIRST))
  const beta = await importOk(t.db, oneMember('Beta', 'KIM@example.test', OTHER))
  await importOk(t.db, oneMember('Gamma', 'kim@example.test'))
  assert.deepEqual(await workspacesOf('kim@example.test', FIRST), ['Alpha', 'Beta'])
  assert.deepEqual(await workspacesOf('kim@example.test', OTHER), [], "the bundle's is not used")
  const hashes = await t.db
    .selectFrom('people')
    .select('password_hash')
    .where('email', 'in', ['kim@example.test', 'KIM@example.test'])
    .execute()
  assert.equal(new Set(hashes.map((row) => row.password_hash)).size, 2, 'one hash, and Gamma none')
  // A client bound to one workspace is authorized only by its people.
  assert.deepEqual(await workspacesOf('kim@example.test', FIRST, beta.workspace_id), ['Beta'])
})

test('data with several hashes for one email: the most shared signs in, set-password unites', async () => {
  const ids = []
  for (const name of ['One', 'Two', 'Three'])
    ids.push((await importOk(t.db, oneMember(name, 'lee@example.test'))).ids.p as string)
  const [first, second] = [await hashPassword(FIRST), await hashPassword(OTHER)]
  // As set-password per workspace left it: Three has a password of its own.
  for (const [id, hash] of [
    [ids[0], first],
    [ids[1], first],
    [ids[2], second],
  ] as const)
    await t.db
      .updateTable('people')
      .set({ password_hash: hash })
      .where('id', '=', id as string)
      .execute()
  assert.deepEqual(await workspacesOf('lee@example.test', FIRST), ['One', 'Two'])
  assert.deepEqual(await workspacesOf('lee@example.test', OTHER), [])

  const now = new Date()
  const hash = await hashPassword(OTHER)
  const people = await t.db
    .transaction()
    .execute((trx) => setEmailPassword(trx, { email: 'Lee@Example.test', hash, now }))
  assert.equal(people.length, 3)
  assert.deepEqual(await workspacesOf('lee@example.test', OTHER), ['One', 'Three', 'Two'])
  assert.deepEqual(await workspacesOf('lee@example.test', FIRST), [])
})

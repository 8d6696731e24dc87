import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { FastifyInstance } from 'fastify'
import { buildApp } from '../../src/app.ts'
import { createAppDeps } from '../../src/app-deps.ts'
import type { ImportResult } from '../../src/bundle/import-bundle.ts'
import { loadConfig } from '../../src/config.ts'
import { openDatabase } from '../../src/db/connect.ts'
import { removeProjectMember } from '../harness/access-changes/project-access.commands.ts'
import { removeTeamMember } from '../harness/access-changes/team-membership.commands.ts'
import { importOk, smallBundle, tokenOf } from '../harness/bundles.ts'
import { client, startTestApp, TEST_SECRET, type TestApp } from '../harness/test-app.ts'
import { ENGINE } from '../harness/test-database.ts'

// Two instances with caches of their own: on PostgreSQL each has its own connection pool too.
let a: TestApp
let b: FastifyInstance
let closeB: () => Promise<void>
let ws: ImportResult
before(async () => {
  a = await startTestApp()
  const handle =
    ENGINE === 'postgres'
      ? await openDatabase({ kind: 'postgres', url: a.db.url as string })
      : undefined
  b = await buildApp(
    createAppDeps({
      db: handle?.db ?? a.db.db,
      engine: ENGINE,
      config: loadConfig({}),
      secret: TEST_SECRET,
    }),
  )
  closeB = async () => {
    await b.close()
    await handle?.close()
  }
  ws = await importOk(a.db.db, smallBundle())
})
after(async () => {
  await closeB()
  await a.close()
})

const secretProjects = async (app: FastifyInstance, key: string) =>
  (await client(app, tokenOf(ws, key)).get('/v1/projects')).json.data.filter(
    (p: { name: string }) => p.name === 'Secret project',
  ).length

test('removing a team member closes what the team opened on the next request, on every instance', async () => {
  // Warm both instances' principal caches.
  assert.equal(await secretProjects(a.app, 'alice-key'), 1)
  assert.equal(await secretProjects(b, 'alice-key'), 1)
  await a.db.db
    .transaction()
    .execute((trx) =>
      removeTeamMember(trx, ws.workspace_id, ws.ids.eng as string, ws.ids.alice as string),
    )
  assert.equal(await secretProjects(a.app, 'alice-key'), 0)
  assert.equal(await secretProjects(b, 'alice-key'), 0)
  const task = await client(b, tokenOf(ws, 'alice-key')).get(`/v1/resources/${ws.ids['t-secret']}`)
  // Alice created the task, so she still opens it; its project is hidden from her now.
  assert.equal(task.status, 200)
  assert.equal(task.json.project_id, null)
  const canvas = await client(b, tokenOf(ws, 'alice-key')).get(`/v1/resources/${ws.ids.plan}`)
  assert.equal(canvas.status, 404)
})

test('removing an integration from a project closes it to the workspace token at once', async () => {
  assert.equal(await secretProjects(b, 'bot-token'), 1)
  await a.db.db
    .transaction()
    .execute((trx) =>
      removeProjectMember(trx, ws.workspace_id, ws.ids.secret as string, ws.ids.bot as string),
    )
  assert.equal(await secretProjects(b, 'bot-token'), 0)
  assert.equal(await secretProjects(a.app, 'bot-token'), 0)
})

test('a key revoked through one instance is refused by the other on the next request', async () => {
  const key = ws.api_keys['bob-key']?.id as string
  assert.equal((await client(b, tokenOf(ws, 'bob-key')).get('/v1/projects')).status, 200)
  await a.db.db
    .updateTable('tokens')
    .set({ revoked_at: new Date() })
    .where('id', '=', key)
    .execute()
  assert.equal((await client(b, tokenOf(ws, 'bob-key')).get('/v1/projects')).status, 401)
  assert.equal((await client(a.app, tokenOf(ws, 'bob-key')).get('/v1/projects')).status, 401)
})

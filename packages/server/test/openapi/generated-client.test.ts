import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, test } from 'node:test'
import { promisify } from 'node:util'
import openapiTS, { astToString } from 'openapi-typescript'
import type { ImportResult } from '../../src/bundle/import-bundle.ts'
import { type ListeningApp, startListeningApp } from '../harness/browser-app.ts'
import { importOk, tokenOf, writableBundle } from '../harness/bundles.ts'

// A client generated from docs/openapi.json by openapi-typescript, called with openapi-fetch: it
// must typecheck strictly and get from the real server what its types say.
const ROOT = join(import.meta.dirname, '../../../..')
const run = promisify(execFile)
let t: ListeningApp
let ws: ImportResult
let dir: string

before(async () => {
  t = await startListeningApp()
  ws = await importOk(t.db.db, writableBundle())
  dir = mkdtempSync(join(tmpdir(), 'workgraph-generated-'))
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'))
  // openapi-typescript's default options, as a reader would run it.
  const schema = await openapiTS(new URL(`file://${join(ROOT, 'docs/openapi.json')}`))
  writeFileSync(join(dir, 'schema.ts'), astToString(schema))
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module' }))
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'es2022',
        lib: ['es2022', 'dom'],
        module: 'nodenext',
        moduleResolution: 'nodenext',
        strict: true,
        noUncheckedIndexedAccess: true,
        allowImportingTsExtensions: true,
        noEmit: true,
        types: ['node'],
      },
      files: ['client.ts'],
    }),
  )
})
after(async () => {
  await t.close()
  rmSync(dir, { recursive: true, force: true })
})

const PROGRAM = `
import createClient from 'openapi-fetch'
import type { paths } from './schema.ts'

const api = createClient<paths>({
  baseUrl: process.env.BASE_URL,
  headers: { authorization: \`Bearer \${process.env.TOKEN}\` },
})
const projects = await api.GET('/v1/projects', { params: { query: { limit: 1 } } })
const project = projects.data?.data[0]
if (!project) throw new Error('no project')
const tasks = await api.GET('/v1/tasks', { params: { query: { status: ['todo'], limit: 5 } } })
const search = await api.POST('/v1/search', { body: { query: 'open task', types: ['task'], limit: 3 } })
const write = () =>
  api.POST('/v1/tasks', {
    params: { header: { 'Idempotency-Key': 'generated-client-1' } },
    body: { /*TITLE*/title: 'From a generated client', project_id: project.id },
  })
const first = await write()
const again = await write()
const summary = await api.GET('/v1/resources/{id}/summary', {
  params: { path: { id: project.id }, query: { max_tokens: 200 } },
})
const missing = await api.GET('/v1/resources/{id}', { params: { path: { id: 'tsk_missing' } } })
// A write's answer is the record or, with dry_run=true, what it would do: told apart by dry_run.
type Done<T> = Exclude<T, { dry_run: true }>
const done = <T extends object>(answer: T | undefined): Done<T> | undefined =>
  answer && !('dry_run' in answer) ? (answer as Done<T>) : undefined
const created = done(first.data)
console.log(JSON.stringify({
  project: project.name,
  statuses: [...new Set(tasks.data?.data.map((task) => task.status))],
  hit: done(search.data)?.results[0]?.title,
  created: created?.title,
  sameTask: created?.id === done(again.data)?.id,
  replayed: again.response.headers.get('idempotent-replayed'),
  withinBudget: (summary.data?.budget.used_tokens ?? 999) <= 200,
  missing: [missing.response.status, missing.error?.code],
}))
`

const tsc = (cwd: string) =>
  run(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], {
    cwd,
  })

test('a client generated with openapi-typescript + openapi-fetch typechecks and works', async () => {
  writeFileSync(join(dir, 'client.ts'), PROGRAM)
  await tsc(dir).catch((error: { stdout?: string }) => assert.fail(error.stdout))
  const { stdout } = await run(process.execPath, ['client.ts'], {
    cwd: dir,
    env: { ...process.env, BASE_URL: t.origin, TOKEN: tokenOf(ws, 'alice-key') },
  })
  assert.deepEqual(JSON.parse(stdout), {
    project: 'Secret project',
    statuses: ['todo'],
    hit: 'Open task',
    created: 'From a generated client',
    sameTask: true,
    replayed: 'true',
    withinBudget: true,
    missing: [404, 'not_found'],
  })
})

test('the generated types catch a mistake: a task without its title does not typecheck', async () => {
  writeFileSync(
    join(dir, 'client.ts'),
    PROGRAM.replace("/*TITLE*/title: 'From a generated client',", ''),
  )
  const failed = await tsc(dir).then(
    () => undefined,
    (error: { stdout: string }) => error.stdout,
  )
  assert.match(failed ?? 'typechecked', /client\.ts.*error TS2345|Property 'title' is missing/)
})

/**
 * `npm test`: runs the whole suite on the embedded database (PGlite), then again on PostgreSQL
 * when one is reachable (DATABASE_URL, or the local server at postgres://postgres@127.0.0.1/test).
 * Each test file gets a database of its own, cloned from a template migrated once per run, so
 * files can run in parallel and may count rows globally. The two engines' suites run at the same
 * time, each line of their output marked with its engine: PGlite's suite keeps the processor busy
 * while PostgreSQL's waits on its server, so together they finish sooner than one after the other.
 *
 *   npm test                          both engines (PostgreSQL skipped with a warning if absent)
 *   npm test -- path/to/x.test.ts     some files only
 *   WORKGRAPH_TEST_DB=pglite npm test one engine (pglite | postgres)
 *   WORKGRAPH_TEST_REQUIRE_POSTGRES=1 fail instead of skipping when PostgreSQL is absent (CI)
 *   WORKGRAPH_TEST_REQUIRE_PODMAN=1   fail instead of skipping the container image's test when
 *                                     podman is not installed (CI)
 *
 * In a whole run, the few files whose subject does not depend on the engine and that cost the
 * most (pages and the SDK driven in Chromium, the dashboard's route modules, the OpenAPI document
 * and its validating crawl, the TypeScript compiler checking the SDK and a generated client, and
 * the container image built and run with podman) run once, on PostgreSQL;
 * the pages' other HTTP tests and their fuzz still run on both.
 * Named on the command line, or when PostgreSQL is absent, they run on every engine. Fuzz tests
 * send a third of their inputs on PGlite (test/harness/property-settings.ts).
 */
import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { globSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { join, resolve } from 'node:path'
import { createInterface } from 'node:readline'
import type { Readable, Writable } from 'node:stream'
import { PGlite } from '@electric-sql/pglite'
import pg from 'pg'
import { openDatabase } from '../packages/server/src/db/connect.ts'
import { migrateToLatest } from '../packages/server/src/db/migrate.ts'

const root = resolve(import.meta.dirname, '..')
const files = process.argv.slice(2)
const patterns =
  files.length > 0 ? files : ['packages/*/src/**/*.test.ts', 'packages/*/test/**/*.test.ts']
// Run once in a whole run (above): the browser, the compiler on generated code, the document
// the routes generate, the container image, and each dashboard route module's own file (the
// pages' HTTP behaviour on both engines is in test/web/*.test.ts and the pages' fuzz).
const ONCE = [
  /\/test\/web\/browser\//,
  /\/test\/web\/[\w-]+\.routes\.test\.ts$/,
  /\/test\/openapi\/openapi\.test\.ts$/,
  /\/test\/openapi\/validating-crawl\.test\.ts$/,
  /sdk\/test\/browser\.test\.ts$/,
  /\/generated-client\.test\.ts$/,
  /sdk\/test\/package\.test\.ts$/,
  /\/test\/docs\/quickstart\.test\.ts$/,
  /\/test\/ops\/container-image\.test\.ts$/,
]
const engines = (process.env.WORKGRAPH_TEST_DB ?? 'pglite,postgres').split(',')
const localPostgres = 'postgres://postgres@127.0.0.1:5432/test'
const concurrency = Math.max(2, availableParallelism())
const runId = `wgt_${process.pid}_${randomBytes(3).toString('hex')}`

// The files of one engine's suite: all, but those run once when another engine runs them.
function suiteFiles(othersRunOnce: boolean): string[] {
  if (files.length > 0 || !othersRunOnce) return patterns
  return globSync(patterns, { cwd: root })
    .sort()
    .filter((file) => !ONCE.some((once) => once.test(file)))
}

function runSuite(
  engine: string,
  env: Record<string, string>,
  suite: string[] = patterns,
): Promise<number> {
  console.log(`=== ${engine}: node --test (${concurrency} files at a time) ===`)
  const child = spawn(
    process.execPath,
    [
      // In this repository @workgraph/sdk resolves to its TypeScript source (examples use it).
      '--conditions=workgraph:source',
      // PGlite is PostgreSQL in WebAssembly, compiled again in every test process: V8's
      // optimizing compiler would spend more on it than a test's short queries win back.
      ...(engine === 'pglite' ? ['--liftoff-only'] : []),
      '--test',
      `--test-concurrency=${concurrency}`,
      '--test-reporter=spec',
      // A time-out is for a test that hangs. In a whole run four test files, Chromium and the
      // database share the machine, and the slowest property test takes three times as long as
      // it does alone: the limit leaves it room.
      '--test-timeout=300000',
      ...suite,
    ],
    {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        // Every test process loads the same few hundred modules: V8 keeps their compiled code
        // on disk, so each process after the first skips compiling them again.
        NODE_COMPILE_CACHE: join(root, '.tmp', 'compile-cache'),
        ...process.env,
        ...env,
        WORKGRAPH_TEST_ENGINE: engine,
      },
    },
  )
  markLines(child.stdout, process.stdout, engine)
  markLines(child.stderr, process.stderr, engine)
  return new Promise((done) => child.on('exit', (code, signal) => done(code ?? (signal ? 1 : 0))))
}

// Each engine's report of its failures (the reporter's closing "failing tests" section), told
// again when both suites are done: with two suites interleaved, the first to fail would otherwise
// scroll out of sight, and CI keeps only the end of the output.
const failureReports = new Map<string, string[]>()
const MAX_REPORT_LINES = 150

// Copies a suite's output line by line, each marked with its engine, so two suites can share
// the terminal, keeping its failure report.
function markLines(from: Readable, to: Writable, engine: string): void {
  const mark = engine === 'pglite' ? '[pglite]   ' : '[postgres] '
  createInterface({ input: from, crlfDelay: Number.POSITIVE_INFINITY }).on('line', (line) => {
    to.write(`${mark}${line}\n`)
    const report = failureReports.get(engine)
    if (report) {
      if (report.length < MAX_REPORT_LINES) report.push(`${mark}${line}`)
    } else if (line.startsWith('✖ failing tests:')) failureReports.set(engine, [`${mark}${line}`])
  })
}

async function pgliteTemplate(): Promise<string> {
  const blank = new PGlite()
  await blank.waitReady
  const handle = await openDatabase({
    kind: 'embedded-clone',
    dump: await blank.dumpDataDir('none'),
  })
  await migrateToLatest(handle.db)
  const dump = await handle.pglite?.dumpDataDir('none')
  await handle.close()
  await blank.close()
  if (!dump) throw new Error('PGlite did not produce a dump')
  const dir = join(root, '.tmp')
  mkdirSync(dir, { recursive: true })
  const file = join(dir, `${runId}-pglite-template.tar`)
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()))
  return file
}

async function postgresAdmin(): Promise<pg.Client | null> {
  const url = process.env.DATABASE_URL ?? localPostgres
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 })
  try {
    await client.connect()
    return client
  } catch (error) {
    if (process.env.WORKGRAPH_TEST_REQUIRE_POSTGRES) throw error
    console.warn(
      `\nPostgreSQL is not reachable at ${url} (${(error as Error).message}); running on PGlite only.`,
    )
    return null
  }
}

// Each suite resolves to its exit code once its databases are gone.
async function pgliteSuite(postgresRuns: boolean): Promise<number> {
  const template = await pgliteTemplate()
  try {
    return await runSuite(
      'pglite',
      { WORKGRAPH_TEST_PGLITE_TEMPLATE: template },
      suiteFiles(postgresRuns),
    )
  } finally {
    rmSync(template, { force: true })
  }
}

async function postgresSuite(admin: pg.Client): Promise<number> {
  const adminUrl = process.env.DATABASE_URL ?? localPostgres
  const template = `${runId}_template`
  try {
    await admin.query(`create database "${template}"`)
    const url = new URL(adminUrl)
    url.pathname = `/${template}`
    const handle = await openDatabase({ kind: 'postgres', url: url.toString(), poolSize: 1 })
    await migrateToLatest(handle.db)
    await handle.close()
    return await runSuite('postgres', {
      WORKGRAPH_TEST_POSTGRES_URL: adminUrl,
      WORKGRAPH_TEST_POSTGRES_TEMPLATE: template,
    })
  } finally {
    const left = await admin.query<{ datname: string }>(
      `select datname from pg_database where datname like $1`,
      [`${runId}%`],
    )
    for (const { datname } of left.rows)
      await admin.query(`drop database if exists "${datname}" with (force)`)
    await admin.end()
  }
}

const admin = engines.includes('postgres') ? await postgresAdmin() : null
const suites: [string, Promise<number>][] = [
  ...(engines.includes('pglite')
    ? [['PGlite', pgliteSuite(admin !== null)] as [string, Promise<number>]]
    : []),
  ...(admin ? [['PostgreSQL', postgresSuite(admin)] as [string, Promise<number>]] : []),
]
const codes: [string, number][] = []
for (const [name, suite] of suites) codes.push([name, await suite])
if (suites.length > 1)
  for (const report of failureReports.values()) console.log(`\n${report.join('\n')}`)
for (const [name, code] of codes) console.log(`${name}: ${code === 0 ? 'passed' : 'FAILED'}`)
process.exitCode = codes.some(([, code]) => code !== 0) ? 1 : 0

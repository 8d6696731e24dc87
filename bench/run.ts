/**
 * `npm run bench`: imports a generated workspace of about `--scale` items into PGlite and into
 * PostgreSQL, serves each from a real `workgraph serve` process and loads it with autocannon, then
 * measures lists, search and summaries in-process, with and without the permission predicate.
 * Every number is reported next to a baseline from the same run, as a ratio (bench/README.md).
 *
 *   npm run bench -- [--scale 100000|demo] [--duration 10] [--connections 10] [--engines pglite,postgres]
 *                    [--iterations 100] [--skip-http | --http-only]
 *
 * `--http-only` measures the import, memory and HTTP loads only: no in-process lists, search,
 * summaries, token shares or relevance (a quicker run, for throughput and memory).
 *
 * Above 200,000 items the workspace is generated and imported in memory by a child process (its
 * bundle would be too large a file to read back as one string).
 */
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import pg from 'pg'
import { scaledBundle } from '../packages/server/src/bundle/demo/scaled-bundle.ts'
import { EMBEDDED_IMPORT_FLAGS } from '../packages/server/src/cli/embedded-import-process.ts'
import { openDatabase } from '../packages/server/src/db/connect.ts'
import { DEFAULT_SUMMARY_TOKENS } from '../packages/server/src/summaries/summary.schemas.ts'
import { demoBenchBundle } from './demo-bench-bundle.ts'
import { openDemoWorld } from './demo-world.ts'
import { type Load, loadRoute, loadTaskCreation, startListening, startServer } from './http-load.ts'
import { benchListQueries } from './list-queries.ts'
import { formatRelevance, relevanceOn } from './relevance/relevance.ts'
import { type EngineResult, formatReport } from './report.ts'
import { benchSearch } from './search-queries.ts'
import { benchSummaries } from './summary-latency.ts'
import { benchSummaryShares, formatShares } from './summary-shares.ts'

const { values } = parseArgs({
  options: {
    scale: { type: 'string', default: '100000' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '10' },
    engines: { type: 'string', default: 'pglite,postgres' },
    iterations: { type: 'string', default: '100' },
    'skip-http': { type: 'boolean', default: false },
    'http-only': { type: 'boolean', default: false },
  },
})
// `--scale demo` is the demo workspace of `npm start`, with the bench's four keys added to it.
const demoScale = values.scale === 'demo'
const scale = demoScale ? 0 : Number(values.scale)
const iterations = Number(values.iterations)
const http = { duration: Number(values.duration), connections: Number(values.connections) }
const root = resolve(import.meta.dirname, '..')
const secret = Buffer.alloc(32, 9).toString('base64')
const work = join(root, '.tmp')
mkdirSync(work, { recursive: true })
const log = (line: string) => process.stderr.write(`${line}\n`)

// Search over HTTP: a few words that every scale has (the generator's head words), and a question.
const SEARCH_LOADS = [
  ['two words', 'checkout release'],
  ['question', 'what is blocking the mobile release?'],
] as const

const inMemory = scale > 200_000
const bundleFile = join(work, `bench-bundle-${values.scale}.json`)
// Generated afresh every run: a bundle left by an older generator would measure old data.
if (!inMemory) {
  log(`Generating a bundle: ${demoScale ? 'the demo workspace' : `about ${scale} items`}…`)
  writeFileSync(
    bundleFile,
    JSON.stringify(demoScale ? demoBenchBundle() : scaledBundle({ scale, seed: 1 })),
  )
}

function importWorkspace(args: string[]) {
  const env = {
    ...process.env,
    WORKGRAPH_SECRET: secret,
    ...(demoScale ? { BENCH_PEOPLE: 'u0=ada,u1=farid,u2=noor,u5=elena' } : {}),
  }
  const child = inMemory
    ? spawnSync(
        process.execPath,
        [
          '--max-old-space-size=14000',
          join(root, 'bench/import-generated.ts'),
          '--scale',
          String(scale),
          ...args,
        ],
        {
          encoding: 'utf8',
          env,
          stdio: ['ignore', 'pipe', 'inherit'],
          maxBuffer: 64 << 20,
        },
      )
    : spawnSync(
        process.execPath,
        // As `workgraph import` runs an import into the embedded database.
        [
          ...(args[0] === '--data' ? EMBEDDED_IMPORT_FLAGS : []),
          join(root, 'bench/import-child.ts'),
          bundleFile,
          ...args,
        ],
        { encoding: 'utf8', env, maxBuffer: 64 << 20 },
      )
  if (child.status !== 0) throw new Error(`import failed: ${child.stderr}`)
  return JSON.parse(child.stdout)
}

async function benchHttp(
  args: string[],
  keys: Record<string, { token: string }>,
  databaseUrl: string | undefined,
): Promise<{ routes: { name: string; load: Load }[]; servePeakMb: number; serveRssMb: number }> {
  const server = await startServer(join(root, 'packages/server/src/main.ts'), args, secret)
  log(`  loading ${server.base} (${http.duration} s per route, ${http.connections} connections)…`)
  // On PostgreSQL each route is charged with the CPU of the backends serving its database too.
  const watcher = databaseUrl ? new pg.Client({ connectionString: databaseUrl }) : null
  await watcher?.connect()
  const backendPids = watcher
    ? async () =>
        (
          await watcher.query<{ pid: number }>(
            'select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
          )
        ).rows.map(({ pid }) => pid)
    : null
  const cpuOf = (pid: number) => ({ ...http, cpu: { serverPid: pid, databasePids: backendPids } })
  const served = cpuOf(server.pid)
  const routes: { name: string; load: Load }[] = [
    {
      name: 'GET /healthz (bare)',
      load: await loadRoute(`${server.base}/healthz`, undefined, served),
    },
  ]
  const owner = keys['owner-key']?.token
  if (databaseUrl) {
    // The minimal route the service is held against: same statement, same principal.
    const baseline = await startListening((port) => [
      join(root, 'bench/baseline-route.ts'),
      '--database-url',
      databaseUrl,
      '--token',
      owner ?? '',
      '--port',
      String(port),
    ])
    routes.push({
      name: 'GET /projects (owner; baseline: bare Fastify + pg, same statement)',
      load: await loadRoute(`${baseline.base}/projects`, owner, cpuOf(baseline.pid)),
    })
    await baseline.stop()
  }
  const who = [
    ['owner', 'owner-key'],
    ['member', 'member-key'],
    ['power member', 'power-key'],
    ['guest', 'guest-key'],
  ] as const
  for (const [name, key] of who) {
    routes.push({
      name: `GET /v1/projects (${name})`,
      load: await loadRoute(`${server.base}/v1/projects`, keys[key]?.token, served),
    })
  }
  for (const [name, key] of who.slice(1)) {
    routes.push({
      name: `GET /v1/tasks (${name})`,
      load: await loadRoute(`${server.base}/v1/tasks`, keys[key]?.token, served),
    })
  }
  for (const [name, query] of SEARCH_LOADS) {
    routes.push({
      name: `POST /v1/search (member, ${name})`,
      load: await loadRoute(`${server.base}/v1/search`, keys['member-key']?.token, served, {
        query,
      }),
    })
  }
  // Writes next to a read, both under 50 concurrent clients (the member's token).
  const busy = { ...served, connections: 50 }
  const member = keys['member-key']?.token
  routes.push({
    name: 'GET /v1/projects (member, 50 clients)',
    load: await loadRoute(`${server.base}/v1/projects`, member, busy),
  })
  routes.push({
    name: 'POST /v1/tasks (member, 50 clients, a key each)',
    load: await loadTaskCreation(
      server.base,
      member,
      { title: 'Benchmark task', description: 'Created by npm run bench.', due: '2026-12-31' },
      busy,
    ),
  })
  const servePeakMb = server.peakRssMb()
  const serveRssMb = server.rssMb()
  await server.stop()
  await watcher?.end()
  return { routes, servePeakMb, serveRssMb }
}

async function benchEngine(engine: string): Promise<EngineResult> {
  const target = await prepareTarget(engine)
  try {
    log(`[${engine}] importing ${values.scale} items…`)
    const imported = importWorkspace(target.args)
    const dataMb = await target.sizeMb()
    const served = values['skip-http']
      ? { routes: [], servePeakMb: 0, serveRssMb: 0 }
      : await benchHttp(target.args, imported.result.api_keys, target.database.url)
    const ids = imported.result.ids
    const people = {
      member: { id: ids.u5, role: 'member' as const },
      'power member': { id: ids.u1, role: 'member' as const },
      guest: { id: ids.u2, role: 'guest' as const },
    }
    const measured = { engine, importSeconds: imported.seconds, dataMb, ...served }
    const importPeakRssMb = imported.peakRssMb
    if (values['http-only'])
      return { ...measured, importPeakRssMb, lists: [], search: [], summaries: [] }
    const handle = await openDatabase(target.database)
    const ws = imported.result.workspace_id
    log(`[${engine}] list queries…`)
    const lists = await benchListQueries(handle.db, ws, people, iterations)
    log(`[${engine}] search…`)
    const search = await benchSearch(
      handle.db,
      ws,
      people,
      Math.max(20, Math.floor(iterations / 2)),
    )
    log(`[${engine}] summaries…`)
    const summaries = await benchSummaries(handle.db, ws, people, 50)
    await handle.close()
    return {
      engine,
      importSeconds: imported.seconds,
      importPeakRssMb: imported.peakRssMb,
      dataMb,
      ...served,
      lists,
      search,
      summaries,
    }
  } finally {
    await target.cleanup()
  }
}

async function prepareTarget(engine: string) {
  if (engine === 'pglite') {
    const dir = mkdtempSync(join(tmpdir(), 'workgraph-bench-'))
    return {
      args: ['--data', dir],
      database: { kind: 'embedded' as const, dataDir: dir, url: undefined },
      sizeMb: async () =>
        Number(spawnSync('du', ['-sm', dir], { encoding: 'utf8' }).stdout.split(/\s/)[0]),
      cleanup: async () => rmSync(dir, { recursive: true, force: true }),
    }
  }
  const adminUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
  const admin = new pg.Client({ connectionString: adminUrl })
  await admin.connect()
  const name = `wg_bench_${process.pid}`
  await admin.query(`drop database if exists ${name} with (force)`)
  await admin.query(`create database ${name}`)
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  return {
    args: ['--database-url', url.toString()],
    database: { kind: 'postgres' as const, url: url.toString() },
    sizeMb: async () =>
      Number((await admin.query(`select pg_database_size('${name}') as size`)).rows[0].size) /
      1024 /
      1024,
    cleanup: async () => {
      await admin.query(`drop database if exists ${name} with (force)`)
      await admin.end()
    },
  }
}

const results: EngineResult[] = []
for (const engine of values.engines.split(',')) results.push(await benchEngine(engine))
if (values['http-only']) {
  console.log(formatReport(values.scale, http, results))
  process.exit(0)
}
// What summaries spend their tokens on depends on the data, not the engine: measured once.
log('summary token shares (demo workspace, in memory)…')
const demo = await openDemoWorld()
const shares = await benchSummaryShares(demo, 'elena', 20, DEFAULT_SUMMARY_TOKENS)
await demo.close()
mkdirSync(join(root, 'bench/results'), { recursive: true })
const stamp = new Date().toISOString().replace(/[:.]/g, '-')
log('relevance of the judged questions (bench/relevance)…')
const relevance = []
for (const engine of values.engines.split(',')) relevance.push(await relevanceOn(engine))
writeFileSync(
  join(root, 'bench/results', `${stamp}.json`),
  JSON.stringify({ scale: values.scale, http, results, summaryShares: shares, relevance }, null, 2),
)
console.log(`${formatReport(values.scale, http, results)}\n\n${formatRelevance(relevance)}`)
console.log(`\nSummary token shares (demo workspace, default budget):\n${formatShares(shares)}`)

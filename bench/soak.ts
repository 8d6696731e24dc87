/**
 * `npm run bench:soak`: a long run of mixed reads and writes at a fixed rate against two
 * `workgraph serve` processes sharing one PostgreSQL database (or, with `--embedded`, one
 * process on the embedded database), beside followers of the change feed: `--polls` long polls
 * and `--streams` MCP change streams. It imports a generated workspace of
 * about `--scale` items into a fresh database, starts both instances on it, and sends `--rate`
 * requests a second in total for `--minutes`, alternating instances, on an open loop (a request
 * is sent when it is due, answered or not). About 85 % are reads (projects, tasks, search, activity,
 * a task by id) and 15 % writes (tasks and comments, each with a fresh Idempotency-Key), as the
 * workspace's member and owner. Every minute it prints requests sent, errors, p50/p99 latency,
 * each instance's resident memory and the database size; at the end a table, whether memory
 * stayed flat, and JSON plus both servers' logs in bench/results/ (bench/README.md, "Soak").
 * Exits non-zero if any request failed: a non-2xx answer, or none within `--timeout` seconds of
 * when it was due.
 *
 *   npm run bench:soak -- [--scale 10000] [--rate 200] [--minutes 10] [--timeout 30]
 *                         [--embedded] [--polls 20] [--streams 10]
 */
import { spawnSync } from 'node:child_process'
import {
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { join, resolve } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { parseArgs } from 'node:util'
import pg from 'pg'
import { scaledBundle } from '../packages/server/src/bundle/demo/scaled-bundle.ts'
import { CpuMeter } from './soak-cpu.ts'
import { type Followers, startFollowers } from './soak-followers.ts'
import { type Instance, startInstance } from './soak-instance.ts'
import { openLoop } from './soak-loop.ts'
import {
  formatSoak,
  type Minute,
  type MinuteEnd,
  memoryVerdict,
  SoakStats,
  trendVerdict,
} from './soak-stats.ts'
import { Workload } from './soak-workload.ts'

const { values } = parseArgs({
  options: {
    scale: { type: 'string', default: '10000' },
    rate: { type: 'string', default: '200' },
    minutes: { type: 'string', default: '10' },
    timeout: { type: 'string', default: '30' },
    embedded: { type: 'boolean', default: false },
    polls: { type: 'string', default: '20' },
    streams: { type: 'string', default: '10' },
  },
})
const embedded = values.embedded
const scale = Number(values.scale)
const rate = Number(values.rate)
const minutes = Number(values.minutes)
const timeoutMs = Number(values.timeout) * 1000
const root = resolve(import.meta.dirname, '..')
const main = join(root, 'packages/server/src/main.ts')
const secret = Buffer.alloc(32, 9).toString('base64')
const results = join(root, 'bench/results')
const stamp = new Date().toISOString().replace(/[:.]/g, '-')
const log = (line: string) => process.stderr.write(`${line}\n`)
mkdirSync(results, { recursive: true })
mkdirSync(join(root, '.tmp'), { recursive: true })

log(`Generating a bundle of about ${scale} items…`)
const bundle = scaledBundle({ scale, seed: 1 })
// Search words from the workspace's own titles: Zipf-distributed, so common and rare ones.
const words = [
  ...new Set((bundle.tasks ?? []).slice(0, 80).flatMap((t) => t.title.toLowerCase().split(' '))),
]
// A file of this run's own: other runs may be generating theirs at the same time.
const bundleFile = join(root, '.tmp', `soak-bundle-${process.pid}.json`)
writeFileSync(bundleFile, JSON.stringify(bundle))

const adminUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
const admin = new pg.Client({ connectionString: adminUrl })
const dbName = `wg_soak_${process.pid}`
const dataDir = join(root, '.tmp', `soak-data-${process.pid}`)
const url = new URL(adminUrl)
url.pathname = `/${dbName}`
if (!embedded) {
  await admin.connect()
  await admin.query(`drop database if exists ${dbName} with (force)`)
  await admin.query(`create database ${dbName}`)
}
const dbMb = async () =>
  embedded
    ? folderMb(dataDir)
    : Number((await admin.query('select pg_database_size($1) as size', [dbName])).rows[0].size) /
      2 ** 20

const backends = async () =>
  embedded
    ? []
    : (
        await admin.query<{ pid: number }>('select pid from pg_stat_activity where datname = $1', [
          dbName,
        ])
      ).rows.map((row) => row.pid)

const instances: Instance[] = []
let followers: Followers | undefined
const stop = new AbortController()
process.once('SIGINT', () => stop.abort())
let failed = true
try {
  log(embedded ? `Importing into ${dataDir}…` : `Importing into PostgreSQL (${dbName})…`)
  const imported = embedded
    ? spawnSync(process.execPath, [main, 'import', bundleFile, '--data', dataDir, '--json'], {
        encoding: 'utf8',
        env: { ...process.env, WORKGRAPH_SECRET: secret },
        maxBuffer: 256 << 20,
      })
    : spawnSync(
        process.execPath,
        [join(root, 'bench/import-child.ts'), bundleFile, '--database-url', url.toString()],
        {
          encoding: 'utf8',
          env: { ...process.env, WORKGRAPH_SECRET: secret },
          maxBuffer: 64 << 20,
        },
      )
  if (imported.status !== 0) throw new Error(`import failed: ${imported.stderr}`)
  const output = JSON.parse(imported.stdout)
  const keys = (embedded ? output : output.result).api_keys as Record<string, { token: string }>
  rmSync(bundleFile, { force: true })

  // One after the other: both would otherwise check migrations at the same moment.
  const target = embedded ? ['--data', dataDir] : ['--database-url', url.toString()]
  for (const i of embedded ? [1] : [1, 2]) {
    const logFile = join(results, `soak-${stamp}-instance-${i}.log`)
    instances.push(await startInstance(main, target, secret, logFile))
  }
  const followerKeys = [keys['member-key']?.token ?? '', keys['owner-key']?.token ?? '']
  followers = await startFollowers(instances[0]?.base ?? '', followerKeys, {
    polls: Number(values.polls),
    streams: Number(values.streams),
  })
  const workload = new Workload(
    instances.map((s) => s.base),
    { member: keys['member-key']?.token ?? '', owner: keys['owner-key']?.token ?? '' },
    words,
  )
  await workload.prime()
  failed = await soak(workload)
  await workload.close()
} finally {
  await followers?.stop()
  await Promise.all(instances.map((s) => s.stop()))
  if (!embedded) {
    await admin.query(`drop database if exists ${dbName} with (force)`)
    await admin.end()
  }
  rmSync(bundleFile, { force: true })
  rmSync(dataDir, { recursive: true, force: true })
}
process.exitCode = failed ? 1 : 0

async function soak(workload: Workload): Promise<boolean> {
  const perMinute = rate * 60
  const total = Math.round(perMinute * minutes)
  const stats = new SoakStats()
  const ends: MinuteEnd[] = []
  const rssSeries: { second: number; rssMb: number[] }[] = []
  const started = performance.now()
  let finished = false
  const peaks: number[][] = []
  // RSS is a sawtooth (the heap grows, a collection returns it): a minute's peak is comparable
  // between minutes where one reading, high or low by chance, is not.
  const rss = () => {
    const now = instances.map((s) => s.rssMb())
    const m = Math.floor((performance.now() - started) / 60_000)
    peaks[m] = now.map((mb, i) => Math.max(mb, peaks[m]?.[i] ?? 0))
    return now
  }
  const serverCpu = instances.map(() => new CpuMeter())
  const pgCpu = new CpuMeter()
  const snapshot = async (m = -1): Promise<MinuteEnd> => ({
    fds: instances.map((s) => openFiles(s.pid).files),
    sockets: instances.map((s) => openFiles(s.pid).sockets),
    rssMb: rss().map((mb, i) => Math.max(mb, peaks[m]?.[i] ?? 0)),
    dbMb: await dbMb(),
    cpu: instances.map((s, i) => serverCpu[i]?.read([s.pid]) ?? 0),
    pgCpu: pgCpu.read(await backends()),
  })
  await snapshot() // the baseline: start-up and import are not the first minute's CPU
  log(`Soak: ${rate} requests/s for ${minutes} min over ${instances.length} instances…`)
  // Memory every 5 s (kept every 10 s in the JSON); at each minute's end the database's size.
  let ticks = 0
  const sampler = setInterval(() => {
    const now = rss()
    if (++ticks % 2 === 0)
      rssSeries.push({ second: Math.round((performance.now() - started) / 1000), rssMb: now })
  }, 5_000)
  const closers = Array.from({ length: Math.ceil(minutes) }, (_, m) =>
    setTimeout(
      async () => {
        ends[m] = await snapshot(m)
        // Printed 5 s later, when most of the minute's requests have been answered.
        await sleep(5_000)
        const end = ends[m]
        if (!finished && end) log(progress(stats.minute(m, end)))
      },
      (m + 1) * 60_000,
    ),
  )
  await openLoop(
    rate,
    total,
    async (n, dueAt) => {
      const lag = performance.now() - dueAt
      const outcome = await workload.issue(n, timeoutMs - lag)
      const ms = performance.now() - dueAt
      const answeredIn = Math.floor(((n * 1000) / rate + ms) / 60_000)
      stats.add(Math.floor(n / perMinute), answeredIn, ms, lag, outcome)
    },
    stop.signal,
  )
  finished = true
  clearInterval(sampler)
  for (const timer of closers) clearTimeout(timer)
  // Past the last minute of sending come the minutes in which late answers still arrived.
  const count = stats.minutes()
  const table: Minute[] = []
  for (let m = 0; m < count; m++) {
    const end = ends[m] ?? (await snapshot(m))
    table.push(stats.minute(m, end))
  }
  return report(table, stats, rssSeries)
}

function report(
  table: Minute[],
  stats: SoakStats,
  rssSeries: { second: number; rssMb: number[] }[],
): boolean {
  const routes = stats.byRoute()
  const errors = table.reduce((sum, m) => sum + m.errors, 0)
  const verdict = `${memoryVerdict(table)}\n${trendVerdict(table)}`
  const logs = instances.map((_, i) => join(results, `soak-${stamp}-instance-${i + 1}.log`))
  const warnings = logs.map(warningLines)
  const file = join(results, `soak-${stamp}.json`)
  writeFileSync(
    file,
    JSON.stringify(
      {
        scale,
        rate,
        minutes,
        errors,
        errorKinds: stats.errorKinds(),
        engine: embedded ? 'embedded' : 'postgres',
        followers: followers?.heard,
        verdict,
        table,
        routes,
        rssSeries,
        logs,
      },
      null,
      2,
    ),
  )
  console.log(
    `\nSoak: ${scale} items, ${rate} requests/s, ${instances.length} instance(s), ${embedded ? 'embedded database' : 'PostgreSQL'}, ${values.polls} long polls and ${values.streams} change streams\n`,
  )
  if (followers) console.log(`followers heard: ${JSON.stringify(followers.heard)}`)
  console.log(formatSoak(table, routes))
  const kinds = Object.entries(stats.errorKinds()).map(([kind, n]) => `${n} ${kind}`)
  console.log(`\nerrors: ${errors}${kinds.length > 0 ? ` (${kinds.join(', ')})` : ''}`)
  for (const m of table)
    for (const s of m.errorSamples)
      console.log(`  minute ${m.minute}: ${s.route} ${s.status} ${s.body}`)
  console.log(verdict)
  console.log(`server log lines at warn or above: ${warnings.join(', ')} (${logs.join(', ')})`)
  console.log(`JSON: ${file}`)
  return errors > 0
}

function progress(m: Minute): string {
  const each = (values: number[], unit: string) =>
    values.map((v) => `${v.toFixed(0)}${unit}`).join(' / ')
  return [
    `  minute ${m.minute}: ${m.sent} sent, ${m.answered} answered, ${m.errors} errors`,
    `p50 ${m.p50.toFixed(1)} ms, p99 ${m.p99.toFixed(1)} ms`,
    `RSS ${each(m.rssMb, ' MB')}, DB ${m.dbMb.toFixed(0)} MB`,
    `CPU ${each(m.cpu, ' %')}, PostgreSQL ${m.pgCpu.toFixed(0)} %`,
  ].join(', ')
}

// Pino writes JSON lines (40 is warn); anything else in the log (a crash's stack) counts too.
function warningLines(file: string): number {
  // What `serve` prints for a person when it starts, beside its JSON log.
  const startup = ['Workgraph is listening on', 'Dashboard:', 'API reference:']
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => {
      if (line.trim() === '' || startup.some((start) => line.startsWith(start))) return false
      try {
        return ((JSON.parse(line) as { level?: number }).level ?? 0) >= 40
      } catch {
        return true
      }
    }).length
}

// Open file descriptors of a process: sockets (connections, which come and go with the load)
// apart from the rest (the data folder's files, pipes, timers), which a leak would grow.
function openFiles(pid: number): { files: number; sockets: number } {
  const open = { files: 0, sockets: 0 }
  try {
    for (const fd of readdirSync(`/proc/${pid}/fd`)) {
      try {
        if (readlinkSync(`/proc/${pid}/fd/${fd}`).startsWith('socket:')) open.sockets++
        else open.files++
      } catch {
        // closed between the listing and the look
      }
    }
  } catch {
    // the process has ended
  }
  return open
}

// The size of a folder's files, in MB.
function folderMb(dir: string): number {
  let bytes = 0
  const walk = (path: string) => {
    for (const entry of readdirSync(path, { withFileTypes: true })) {
      const full = join(path, entry.name)
      if (entry.isDirectory()) walk(full)
      else if (entry.isFile()) bytes += statSync(full).size
    }
  }
  try {
    walk(dir)
  } catch {}
  return bytes / 2 ** 20
}

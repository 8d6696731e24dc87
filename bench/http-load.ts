import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import autocannon from 'autocannon'
import { CpuMeter } from './soak-cpu.ts'

/** What autocannon measured on one route, and what each request cost in CPU. */
export interface Load {
  requestsPerSecond: number
  p50: number
  p97_5: number
  p99: number
  failures: number
  /** The server process's CPU per request, in ms; null when not measured. */
  serverCpuMs: number | null
  /** PostgreSQL's CPU per request (the database's backends), in ms; null on PGlite. */
  databaseCpuMs: number | null
}

/**
 * The processes whose CPU a load is charged with: the server and, on PostgreSQL, the backends
 * connected to its database (read at each measurement, since a pool may open new ones).
 */
export interface CpuSources {
  serverPid: number
  databasePids: (() => Promise<number[]>) | null
}

// Reads the sources' CPU from before a measured run to after it, in seconds.
async function cpuDuring<T>(
  sources: CpuSources | undefined,
  run: () => Promise<T>,
): Promise<{ result: T; server: number | null; database: number | null }> {
  if (!sources) return { result: await run(), server: null, database: null }
  const server = new CpuMeter()
  const database = new CpuMeter()
  server.seconds([sources.serverPid])
  database.seconds((await sources.databasePids?.()) ?? [])
  const result = await run()
  return {
    result,
    server: server.seconds([sources.serverPid]),
    database: sources.databasePids ? database.seconds(await sources.databasePids()) : null,
  }
}

/**
 * Loads one route for `duration` seconds after a 2-second warm-up that is discarded; with a
 * `body`, every request POSTs it as JSON.
 */
export async function loadRoute(
  url: string,
  token: string | undefined,
  options: { duration: number; connections: number; cpu?: CpuSources },
  body?: Record<string, unknown>,
): Promise<Load> {
  const request = {
    url,
    connections: options.connections,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    ...(body ? { method: 'POST' as const, body: JSON.stringify(body) } : {}),
  }
  await autocannon({ ...request, duration: 2 })
  return loadOf(
    await cpuDuring(options.cpu, () => autocannon({ ...request, duration: options.duration })),
  )
}

/**
 * Loads `POST /v1/tasks` like `loadRoute`: every request creates a task and carries an
 * Idempotency-Key of its own, so each one runs the whole write path (claim, transaction with
 * index, activity, audit, outbox event and stored answer).
 */
export async function loadTaskCreation(
  base: string,
  token: string | undefined,
  body: Record<string, unknown>,
  options: { duration: number; connections: number; cpu?: CpuSources },
): Promise<Load> {
  let sent = 0
  const run = (duration: number) =>
    autocannon({
      url: `${base}/v1/tasks`,
      connections: options.connections,
      duration,
      requests: [
        {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
          setupRequest: (request) => ({
            ...request,
            headers: { ...request.headers, 'idempotency-key': `bench-${process.pid}-${++sent}` },
          }),
        },
      ],
    })
  await run(2)
  const measured = await cpuDuring(options.cpu, () => run(options.duration))
  if (measured.result.non2xx > 0) {
    const { non2xx } = measured.result
    console.warn(`  POST /v1/tasks: ${non2xx} answers were not 2xx; its numbers are void`)
  }
  return loadOf(measured)
}

function loadOf({
  result,
  server,
  database,
}: {
  result: autocannon.Result
  server: number | null
  database: number | null
}): Load {
  const perRequestMs = (seconds: number | null) =>
    seconds === null ? null : (seconds * 1000) / Math.max(1, result.requests.total)
  return {
    serverCpuMs: perRequestMs(server),
    databaseCpuMs: perRequestMs(database),
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p97_5: result.latency.p97_5,
    p99: result.latency.p99,
    failures: result.errors + result.timeouts + result.non2xx,
  }
}

/** A `workgraph serve` process on a random port, started and waited for. */
export function startServer(main: string, args: string[], secret: string) {
  // As `npm start` runs it: a young generation of 16 MB keeps the heap small
  // (bench/HISTORY.md, "Memory").
  const flags = ['--max-semi-space-size=16']
  return startListening((port) => [...flags, main, 'serve', '--port', String(port), ...args], {
    WORKGRAPH_SECRET: secret,
    LOG_LEVEL: 'warn',
    RATE_LIMIT_READS_PER_MINUTE: '10000000',
    RATE_LIMIT_WRITES_PER_MINUTE: '10000000',
  })
}

/**
 * A Node process serving HTTP on a random port (the service, or the bench's baseline route),
 * started and waited for: it prints `listening on` once it accepts requests.
 */
export async function startListening(
  argsFor: (port: number) => string[],
  env: Record<string, string> = {},
) {
  const port = 18_000 + Math.floor(Math.random() * 1000)
  const server = spawn(process.execPath, argsFor(port), {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  await new Promise<void>((ready, fail) => {
    let out = ''
    server.stdout.on('data', (chunk) => {
      out += chunk
      if (out.includes('listening on')) ready()
    })
    server.on('exit', (code) => fail(new Error(`server exited with ${code}`)))
  })
  return {
    base: `http://127.0.0.1:${port}`,
    pid: server.pid ?? 0,
    peakRssMb: () => statusMb(server.pid, 'VmHWM'),
    /** Resident memory now, in MB. */
    rssMb: () => statusMb(server.pid, 'VmRSS'),
    stop: () =>
      new Promise<void>((done) => {
        server.on('exit', () => done())
        server.kill('SIGTERM')
      }),
  }
}

// A memory figure of /proc/<pid>/status (kB there), in MB.
function statusMb(pid: number | undefined, field: 'VmHWM' | 'VmRSS'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  return Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) / 1024
}

import { spawn, spawnSync } from 'node:child_process'
import { rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import pg from 'pg'
import { READ_SCOPES, WRITE_SCOPES } from '../packages/server/src/bundle/demo/scaled-bundle.ts'
import { demoBenchBundle } from './demo-bench-bundle.ts'
import { CpuMeter } from './soak-cpu.ts'
import { type Instance, startInstance } from './soak-instance.ts'

/**
 * What every scenario of `npm run bench:chaos` works with: a fresh PostgreSQL database holding
 * the demo workspace with the bench's keys, a way to start `workgraph serve` processes on it,
 * and the database's own counters.
 */
export interface ChaosWorld {
  readonly root: string
  readonly dbName: string
  readonly url: string
  /** A connection to the cluster (not to the bench's database), as its superuser. */
  readonly admin: pg.Client
  /** Opens `admin` again: after a restart of the cluster. */
  reconnect(): Promise<void>
  /** The owner's key (every scope the scenarios need) and a member's (reads and writes). */
  readonly tokens: { owner: string; member: string }
  /** Starts a server on the database, logging to bench/results; `env` is added to its own. */
  start(name: string, env?: Record<string, string>): Promise<Instance>
  /** Transactions committed or rolled back in the database so far, by PostgreSQL's count. */
  transactions(): Promise<number>
  /** The CPU of the database's backends since the last call, in percent of one core. */
  databaseCpu(): Promise<number>
  close(): Promise<void>
}

const SECRET = Buffer.alloc(32, 9).toString('base64')

/** Creates the database, imports the demo workspace into it, and finds the bench's keys. */
export async function openChaosWorld(
  root: string,
  results: string,
  stamp: string,
): Promise<ChaosWorld> {
  const adminUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
  // A restart of the cluster ends this connection: an 'error' unheard would end the bench.
  const connectAdmin = async () => {
    const client = new pg.Client({ connectionString: adminUrl })
    client.on('error', () => undefined)
    await client.connect()
    return client
  }
  let admin = await connectAdmin()
  const dbName = `wg_chaos_${process.pid}`
  await admin.query(`drop database if exists ${dbName} with (force)`)
  await admin.query(`create database ${dbName}`)
  const url = new URL(adminUrl)
  url.pathname = `/${dbName}`
  const bundleFile = join(root, '.tmp', `chaos-bundle-${process.pid}.json`)
  const bundle = demoBenchBundle()
  // Ada's key with every scope the scenarios use: writes, the feed and webhook endpoints.
  const chaosKey = {
    key: 'chaos-key',
    person: 'ada',
    scopes: [...READ_SCOPES, ...WRITE_SCOPES, 'webhook:manage'],
  }
  bundle.api_keys = [...(bundle.api_keys ?? []), chaosKey] as typeof bundle.api_keys
  writeFileSync(bundleFile, JSON.stringify(bundle))
  const imported = spawnSync(
    process.execPath,
    [join(root, 'bench/import-child.ts'), bundleFile, '--database-url', url.toString()],
    { encoding: 'utf8', env: { ...process.env, WORKGRAPH_SECRET: SECRET } },
  )
  rmSync(bundleFile, { force: true })
  if (imported.status !== 0) throw new Error(`import failed: ${imported.stderr}`)
  const keys = JSON.parse(imported.stdout).result.api_keys as Record<string, { token: string }>
  const tokens = { owner: keys['chaos-key']?.token ?? '', member: keys['member-key']?.token ?? '' }
  const main = join(root, 'packages/server/src/main.ts')
  const cpu = new CpuMeter()
  return {
    root,
    dbName,
    url: url.toString(),
    get admin() {
      return admin
    },
    reconnect: async () => {
      await admin.end().catch(() => undefined)
      for (let tries = 0; ; tries++) {
        try {
          admin = await connectAdmin()
          return
        } catch (error) {
          if (tries >= 50) throw error
          await new Promise((done) => setTimeout(done, 200))
        }
      }
    },
    tokens,
    start: (name, env = {}) =>
      startInstance(
        main,
        ['--database-url', url.toString()],
        SECRET,
        join(results, `chaos-${stamp}-${name}.log`),
        env,
      ),
    transactions: async () => {
      const row = await admin.query<{ n: string }>(
        'select xact_commit + xact_rollback as n from pg_stat_database where datname = $1',
        [dbName],
      )
      return Number(row.rows[0]?.n ?? 0)
    },
    databaseCpu: async () => {
      const pids = await admin.query<{ pid: number }>(
        'select pid from pg_stat_activity where datname = $1',
        [dbName],
      )
      return cpu.read(pids.rows.map((row) => row.pid))
    },
    close: async () => {
      await admin.query(`drop database if exists ${dbName} with (force)`)
      await admin.end()
    },
  }
}

/** The first project the member opens, as the API lists it: the bench writes tasks there. */
export async function memberProject(base: string, token: string): Promise<string> {
  const answer = await fetch(`${base}/v1/projects?limit=1`, {
    headers: { authorization: `Bearer ${token}` },
  })
  const id = ((await answer.json()) as { data: { id: string }[] }).data[0]?.id
  if (!id) throw new Error('the member opens no project')
  return id
}

/** Starts a child `node` process running a bench script; resolves once it prints `started`. */
export async function startChild(script: string, args: string[]) {
  const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'inherit'] })
  let out = ''
  await new Promise<void>((ready, fail) => {
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk
      if (out.includes('started')) ready()
    })
    child.once('exit', (code) => fail(new Error(`${script} exited with ${code}`)))
  })
  return {
    pid: child.pid ?? 0,
    /** Stops it and returns the JSON line it printed last. */
    stop: () =>
      new Promise<unknown>((done) => {
        child.once('exit', () => done(JSON.parse(out.trim().split('\n').at(-1) ?? 'null')))
        child.kill('SIGTERM')
      }),
  }
}

import { execFileSync, spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, statfsSync, writeFileSync } from 'node:fs'
import { connect, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import pg from 'pg'
import { Agent, request } from 'undici'
import { childrenOf, isRunning } from '../packages/server/test/harness/processes.ts'
import { type ChaosWorld, memberProject } from './chaos-world.ts'

/** One fault of the fault review: what the writers saw while it lasted, and what held after. */
export interface FaultRow {
  fault: string
  /** Writes acknowledged while the fault lasted. */
  acknowledged: number
  /** Acknowledged writes not in the database afterwards. */
  lost: number
  /** Writes in the database more than once (one Idempotency-Key, two tasks). */
  duplicated: number
  /** Answers by status ("network": a refused or dropped connection). */
  statuses: Record<string, number>
  /** What else the fault showed (readiness, latencies, memory). */
  notes: string
  /** Whether the fault's own guarantee held: nothing lost or duplicated, no 5xx but 503. */
  held: boolean
}

const FAKETIME = [
  '/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1',
  '/usr/lib/aarch64-linux-gnu/faketime/libfaketime.so.1',
].find((path) => existsSync(path))

interface Writers {
  readonly acked: Map<string, number>
  readonly statuses: Record<string, number>
  stop(): Promise<void>
}

/**
 * Writers that each create tasks one after another with an Idempotency-Key, sending each key to
 * `bases[0]` and, acknowledged or not, again to every other base: the retry a client behind a
 * load balancer makes. Every answer but a 201 (or its replay) is counted; a key is retried until
 * acknowledged.
 */
function startWriters(
  bases: () => string[],
  token: string,
  projectId: string,
  tag: string,
  count = 8,
): Writers {
  const dispatcher = new Agent({ connections: count * 2 + 4 })
  const acked = new Map<string, number>()
  const statuses: Record<string, number> = {}
  const stopping = new AbortController()
  let next = 0
  const send = async (base: string, title: string, key: string) => {
    let status = 'network'
    try {
      const answer = await request(`${base}/v1/tasks`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'idempotency-key': key,
        },
        body: JSON.stringify({ title, project_id: projectId }),
        dispatcher,
        headersTimeout: 30_000,
        bodyTimeout: 30_000,
      })
      status = String(answer.statusCode)
      await answer.body.dump()
    } catch {}
    statuses[status] = (statuses[status] ?? 0) + 1
    return status === '201'
  }
  const writer = async () => {
    while (!stopping.signal.aborted) {
      const n = next++
      const title = `Fault ${tag} ${n}`
      const key = `fault-${tag}-${n}`
      let done = false
      while (!done && !stopping.signal.aborted) {
        const [first, ...others] = bases()
        done = await send(first as string, title, key)
        for (const other of others) done = (await send(other, title, key)) || done
        if (!done) await sleep(100)
      }
      if (done) acked.set(title, (acked.get(title) ?? 0) + 1)
    }
  }
  const running = Array.from({ length: count }, writer)
  return {
    acked,
    statuses,
    stop: async () => {
      stopping.abort()
      await Promise.all(running)
      await dispatcher.close()
    },
  }
}

/** What the database holds of a run's writes: lost and duplicated. */
async function tally(url: string, tag: string, acked: Map<string, number>) {
  const db = new pg.Client({ connectionString: url })
  await db.connect()
  try {
    const rows = await db.query<{ title: string; copies: number }>(
      'select title, count(*)::int as copies from tasks where title like $1 group by title',
      [`Fault ${tag} %`],
    )
    const copies = new Map(rows.rows.map((row) => [row.title, row.copies]))
    return {
      lost: [...acked.keys()].filter((title) => !copies.has(title)).length,
      duplicated: rows.rows.filter((row) => row.copies > 1).length,
    }
  } finally {
    await db.end()
  }
}

const serverErrors = (statuses: Record<string, number>) =>
  Object.entries(statuses)
    .filter(([status]) => status.startsWith('5') && status !== '503')
    .reduce((sum, [, n]) => sum + n, 0)

async function timedGet(url: string): Promise<{ status: number; ms: number }> {
  const started = performance.now()
  try {
    const answer = await request(url, { headersTimeout: 20_000 })
    await answer.body.dump()
    return { status: answer.statusCode, ms: performance.now() - started }
  } catch {
    return { status: 0, ms: performance.now() - started }
  }
}

/** A second instance with its clock a day ahead; every key is retried through it. */
export async function skewedClock(world: ChaosWorld, seconds: number): Promise<FaultRow> {
  if (!FAKETIME) throw new Error('libfaketime is needed: apt-get install faketime')
  const plain = await world.start('skew-plain')
  const ahead = await world.start('skew-ahead', {
    LD_PRELOAD: FAKETIME,
    FAKETIME: '+25h',
    FAKETIME_DONT_FAKE_MONOTONIC: '1',
  })
  const project = await memberProject(plain.base, world.tokens.owner)
  const tag = `skew-${process.pid}`
  const writers = startWriters(() => [plain.base, ahead.base], world.tokens.owner, project, tag)
  await sleep(seconds * 1000)
  await writers.stop()
  await Promise.all([plain.stop(), ahead.stop()])
  const { lost, duplicated } = await tally(world.url, tag, writers.acked)
  return {
    fault: "one instance's clock 25 h ahead, every key retried through it",
    acknowledged: writers.acked.size,
    lost,
    duplicated,
    statuses: writers.statuses,
    notes: 'a retry through the skewed instance must be a replay',
    held: lost + duplicated + serverErrors(writers.statuses) === 0,
  }
}

/** An outside session holding an exclusive lock on `tasks` for a while, under writes. */
export async function heldLock(world: ChaosWorld, seconds: number): Promise<FaultRow> {
  const server = await world.start('lock')
  const project = await memberProject(server.base, world.tokens.owner)
  const tag = `lock-${process.pid}`
  const writers = startWriters(() => [server.base], world.tokens.owner, project, tag)
  await sleep(1000)
  const outsider = new pg.Client({ connectionString: world.url })
  await outsider.connect()
  await outsider.query('begin')
  await outsider.query('lock table tasks in access exclusive mode')
  const ready: number[] = []
  const lists: number[] = []
  const until = performance.now() + seconds * 1000
  while (performance.now() < until) {
    ready.push((await timedGet(`${server.base}/readyz`)).ms)
    const list = await timedGet(`${server.base}/healthz`)
    lists.push(list.ms)
    await sleep(500)
  }
  await outsider.query('rollback')
  await outsider.end()
  await sleep(2000)
  await writers.stop()
  await server.stop()
  const { lost, duplicated } = await tally(world.url, tag, writers.acked)
  return {
    fault: `a lock on tasks held ${seconds} s by another session`,
    acknowledged: writers.acked.size,
    lost,
    duplicated,
    statuses: writers.statuses,
    notes: `/readyz answered in ${Math.round(Math.max(...ready))} ms at most`,
    held: lost + duplicated + serverErrors(writers.statuses) === 0 && Math.max(...ready) < 1500,
  }
}

/** Clients that hold connections: idle sockets by the thousand, and bodies sent a byte at a time. */
export async function slowClients(world: ChaosWorld, seconds: number): Promise<FaultRow> {
  const server = await world.start('slow', { HTTP_MAX_CONNECTIONS_PER_CLIENT: '100' })
  const project = await memberProject(server.base, world.tokens.owner)
  const port = Number(new URL(server.base).port)
  const tag = `slow-${process.pid}`
  const sockets: Socket[] = []
  let refused = 0
  // One client opens 5,000 idle sockets, from an address of its own.
  for (let i = 0; i < 5000; i++) {
    const socket = connect({ port, host: '127.0.0.1', localAddress: '127.0.0.9' })
    socket.on('error', () => {})
    socket.on('close', () => refused++)
    sockets.push(socket)
  }
  // And 50 bodies, a byte every second.
  const drips: Socket[] = []
  for (let i = 0; i < 50; i++) {
    const socket = connect({ port, host: '127.0.0.1', localAddress: '127.0.0.10' })
    socket.on('error', () => {})
    socket.write(
      `POST /v1/tasks HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${world.tokens.owner}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n`,
    )
    drips.push(socket)
  }
  const drip = setInterval(() => {
    for (const socket of drips) if (socket.writable) socket.write(' ')
  }, 1000)
  const writers = startWriters(() => [server.base], world.tokens.owner, project, tag)
  await sleep(seconds * 1000)
  const health = await timedGet(`${server.base}/healthz`)
  await writers.stop()
  clearInterval(drip)
  const dripsClosed = drips.filter((socket) => socket.destroyed || !socket.writable).length
  const idleClosed = refused
  for (const socket of [...sockets, ...drips]) socket.destroy()
  await server.stop()
  const { lost, duplicated } = await tally(world.url, tag, writers.acked)
  return {
    fault: '5,000 idle sockets from one client and 50 bodies sent a byte a second',
    acknowledged: writers.acked.size,
    lost,
    duplicated,
    statuses: writers.statuses,
    notes: `${idleClosed} of 5,000 idle sockets closed by the server; ${dripsClosed} of 50 slow bodies ended within ${seconds} s; /healthz ${health.status} in ${Math.round(health.ms)} ms`,
    held:
      lost + duplicated + serverErrors(writers.statuses) === 0 &&
      health.status === 200 &&
      writers.acked.size > 0 &&
      (seconds < 35 || dripsClosed === 50),
  }
}

/** 25 change streams whose clients never read, beside writers: writes a second with and without. */
export async function unreadStreams(world: ChaosWorld, seconds: number): Promise<FaultRow> {
  const server = await world.start('streams', { MCP_STREAMS_PER_PERSON: '100' })
  const project = await memberProject(server.base, world.tokens.owner)
  const measure = async (tag: string) => {
    const writers = startWriters(() => [server.base], world.tokens.owner, project, tag)
    await sleep(seconds * 1000)
    await writers.stop()
    return writers
  }
  const alone = await measure(`streams-alone-${process.pid}`)
  // Measured once the same load has warmed the server: what follows is the streams' own.
  const rssBefore = rssMb(server.pid)
  const streams: AbortController[] = []
  for (let i = 0; i < 25; i++) {
    const stop = new AbortController()
    streams.push(stop)
    void listenUnread(server.base, world.tokens.member, stop.signal)
  }
  await sleep(1000)
  const beside = await measure(`streams-beside-${process.pid}`)
  const rssWith = rssMb(server.pid)
  for (const stop of streams) stop.abort()
  // The heap gives memory back after a quiet while (V8's memory reducer), not at once.
  await sleep(30_000)
  const rssAfter = rssMb(server.pid)
  await server.stop()
  const { lost, duplicated } = await tally(world.url, `streams-beside-${process.pid}`, beside.acked)
  const ratio = beside.acked.size / Math.max(1, alone.acked.size)
  return {
    fault: '25 change streams whose clients never read',
    acknowledged: beside.acked.size,
    lost,
    duplicated,
    statuses: beside.statuses,
    notes: `writes ${ratio.toFixed(2)} of the same load without them; RSS ${Math.round(rssBefore)} MB after the load alone → ${Math.round(rssWith)} MB beside them → ${Math.round(rssAfter)} MB 30 s after they closed`,
    held: lost + duplicated + serverErrors(beside.statuses) === 0 && ratio > 0.7,
  }
}

// A subscriptions/listen stream whose answer is never read, until aborted.
async function listenUnread(base: string, token: string, signal: AbortSignal) {
  const meta = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientInfo': { name: 'sleeper', version: '1' },
    'io.modelcontextprotocol/clientCapabilities': {},
  }
  await fetch(`${base}/mcp`, {
    method: 'POST',
    signal,
    headers: {
      authorization: `Bearer ${token}`,
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
      'mcp-method': 'subscriptions/listen',
      'mcp-protocol-version': '2026-07-28',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 'listen:0',
      method: 'subscriptions/listen',
      params: { _meta: meta, notifications: { resourceSubscriptions: ['workgraph://changes'] } },
    }),
  }).catch(() => undefined)
}

function rssMb(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8')
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024
  } catch {
    return 0
  }
}

/**
 * The embedded database on a small tmpfs that fills up under writers, then frees: every write
 * that finds no room is a 503, readiness follows, and both come back alone.
 */
export async function diskFull(root: string, seconds: number): Promise<FaultRow> {
  const mount = mkdtempSync(join(tmpdir(), 'wg-chaos-full-'))
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=160m', 'tmpfs', mount])
  const data = join(mount, 'data')
  const filler = join(mount, 'filler')
  try {
    const main = join(root, 'packages/server/src/main.ts')
    const bundle = join(mount, 'bundle.json')
    writeFileSync(bundle, JSON.stringify(SMALL_BUNDLE))
    const imported = spawnSync(
      process.execPath,
      [main, 'import', bundle, '--data', data, '--json'],
      {
        encoding: 'utf8',
        env: { ...process.env, WORKGRAPH_SECRET: Buffer.alloc(32, 9).toString('base64') },
      },
    )
    if (imported.status !== 0) throw new Error(`import failed: ${imported.stderr}`)
    const result = JSON.parse(imported.stdout) as {
      api_keys: Record<string, { token: string }>
      ids: Record<string, string>
    }
    const token = result.api_keys['alice-key']?.token ?? ''
    const { startInstance } = await import('./soak-instance.ts')
    const server = await startInstance(
      main,
      ['--data', data],
      Buffer.alloc(32, 9).toString('base64'),
      join(root, 'bench/results', `chaos-disk-full-${process.pid}.log`),
    )
    const project = result.ids.open ?? ''
    const tag = `full-${process.pid}`
    const writers = startWriters(() => [server.base], token, project, tag, 4)
    await sleep(1000)
    const disk = statfsSync(mount)
    writeFileSync(filler, Buffer.alloc(Math.max(0, disk.bavail * disk.bsize - 512 * 1024)))
    await sleep(seconds * 1000)
    const readyFull = await timedGet(`${server.base}/readyz`)
    rmSync(filler)
    await sleep(2000)
    const readyAfter = await timedGet(`${server.base}/readyz`)
    const ackedBefore = writers.acked.size
    await sleep(2000)
    await writers.stop()
    const recovered = writers.acked.size - ackedBefore
    await server.stop()
    const handle = spawnSync(
      process.execPath,
      [join(root, 'bench/count-tasks.ts'), data, `Fault ${tag} %`],
      { encoding: 'utf8' },
    )
    const counts = JSON.parse(handle.stdout || '{}') as Record<string, number>
    const lost = [...writers.acked.keys()].filter((title) => !counts[title]).length
    const duplicated = Object.values(counts).filter((n) => n > 1).length
    return {
      fault: 'the embedded database’s disk full under 4 writers, then freed',
      acknowledged: writers.acked.size,
      lost,
      duplicated,
      statuses: writers.statuses,
      notes: `/readyz ${readyFull.status} while full, ${readyAfter.status} once freed; ${recovered} writes acknowledged in the 2 s after`,
      held:
        lost + duplicated + serverErrors(writers.statuses) === 0 &&
        readyFull.status === 503 &&
        readyAfter.status === 200 &&
        recovered > 0,
    }
  } finally {
    execFileSync('umount', [mount])
    rmSync(mount, { recursive: true, force: true })
  }
}

/** `kill -9` of an embedded import's command, halfway: its child must end, leaving nothing. */
export async function killedImport(root: string): Promise<FaultRow> {
  const dir = mkdtempSync(join(tmpdir(), 'wg-chaos-import-'))
  try {
    const main = join(root, 'packages/server/src/main.ts')
    const file = join(dir, 'big.json')
    const made = spawnSync(process.execPath, [main, 'demo', '--scale', '20000', '--out', file], {
      encoding: 'utf8',
    })
    if (made.status !== 0) throw new Error(`demo failed: ${made.stderr}`)
    const data = join(dir, 'data')
    const parent = spawn(process.execPath, [main, 'import', file, '--data', data], {
      stdio: 'ignore',
      env: { ...process.env, WORKGRAPH_SECRET: Buffer.alloc(32, 9).toString('base64') },
    })
    let child: number | undefined
    for (let i = 0; i < 2400 && !child; i++) {
      child = childrenOf(parent.pid ?? 0)[0]
      await sleep(25)
    }
    while (!existsSync(join(data, 'lock-key'))) await sleep(25)
    await sleep(3000)
    const killedAt = performance.now()
    process.kill(parent.pid ?? 0, 'SIGKILL')
    let goneMs = Number.NaN
    for (let i = 0; i < 400; i++) {
      if (!child || !isRunning(child)) {
        goneMs = performance.now() - killedAt
        break
      }
      await sleep(25)
    }
    const again = spawnSync(process.execPath, [main, 'import', file, '--data', data], {
      encoding: 'utf8',
      // Its summary names every id of 20,000 items: more than spawnSync keeps by default.
      maxBuffer: 1 << 30,
      env: { ...process.env, WORKGRAPH_SECRET: Buffer.alloc(32, 9).toString('base64') },
    })
    const workspaces = JSON.parse(
      spawnSync(process.execPath, [join(root, 'bench/count-tasks.ts'), data, '%', '--workspaces'], {
        encoding: 'utf8',
      }).stdout || '{}',
    ) as { workspaces?: number }
    const held = Number.isFinite(goneMs) && again.status === 0 && workspaces.workspaces === 1
    return {
      fault: 'kill -9 of an embedded import (20,000 items) halfway',
      acknowledged: 0,
      lost: 0,
      duplicated: workspaces.workspaces !== undefined && workspaces.workspaces > 1 ? 1 : 0,
      statuses: { retried: again.status === 0 ? 1 : 0 },
      notes: `its child ended ${Math.round(goneMs)} ms after; the retried import ${again.status === 0 ? 'ran' : `failed (${again.status}): ${(again.stderr + again.stdout).trim().slice(0, 160)}`}; ${workspaces.workspaces} workspace afterwards`,
      held,
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

// A workspace of one person and one project: the disk-full run's, small enough for a tmpfs.
const SMALL_BUNDLE = {
  format: 'workgraph.bundle/v1',
  workspace: { key: 'ws', name: 'Disk full' },
  people: [{ key: 'alice', name: 'Alice', email: 'alice@example.test', role: 'owner' }],
  projects: [
    { key: 'open', name: 'Open', status: 'active', visibility: 'workspace', owner: 'alice' },
  ],
  api_keys: [
    { key: 'alice-key', person: 'alice', scopes: ['project:read', 'task:read', 'task:write'] },
  ],
}

/** The fault table. */
export function formatFaults(rows: FaultRow[]): string {
  const statuses = (counts: Record<string, number>) =>
    Object.entries(counts)
      .map(([status, n]) => `${status}: ${n}`)
      .join(', ')
  return [
    '| fault | acknowledged | lost | duplicated | answers | what else | guarantees |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...rows.map(
      (r) =>
        `| ${r.fault} | ${r.acknowledged} | ${r.lost} | ${r.duplicated} | ${statuses(r.statuses)} | ${r.notes} | ${r.held ? 'held' : 'BROKEN'} |`,
    ),
  ].join('\n')
}

import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { readdirSync } from 'node:fs'
import { setTimeout as sleep } from 'node:timers/promises'
import pg from 'pg'
import { Agent, request } from 'undici'
import { type ChaosWorld, memberProject } from './chaos-world.ts'
import type { Instance } from './soak-instance.ts'

/** One fault of the crash scenario, and what the writers and the feed's follower saw. */
export interface CrashRow {
  fault: string
  /** Writes acknowledged from the fault until the next one (or the end). */
  acknowledged: number
  /** Answers by status while that went on ("network" for a refused or dropped connection). */
  statuses: Record<string, number>
  /** From the fault to the first write acknowledged after it, in ms. */
  firstAckMs: number
  /** The longest stretch with no write acknowledged, in ms. */
  longestGapMs: number
  /** Whether every guarantee held (checked once, over the whole run, and shown on each row). */
  held: boolean
}

/** How the crash scenario runs. */
export interface CrashOptions {
  writers?: number
  /** Seconds of writing before the first fault and between faults. */
  stretch?: number
  restartPostgres: boolean
}

const RETRY_MS = 100

/**
 * Two servers on one database, writers that each retry one write with its Idempotency-Key until
 * it is acknowledged (alternating servers on failure), and one reader following the change feed.
 * Faults in turn: `kill -9` of the first server (restarted a second later), the same of the
 * second, then every database connection ended (or the cluster restarted). At the end: every
 * acknowledged write is in the database once, with one activity, audit and outbox entry; no
 * write is there twice; the follower received each acknowledged task's creation exactly once.
 */
export async function runCrashes(world: ChaosWorld, options: CrashOptions): Promise<CrashRow[]> {
  const writers = options.writers ?? 30
  const stretchMs = (options.stretch ?? 4) * 1000
  const instances: Instance[] = [await world.start('crash-a'), await world.start('crash-b')]
  const bases = () => instances.map((s) => s.base)
  const projectId = await memberProject(instances[0]?.base ?? '', world.tokens.owner)
  const run = `${process.pid}`
  const dispatcher = new Agent({ connections: writers + 10 })
  const headers = {
    authorization: `Bearer ${world.tokens.owner}`,
    'content-type': 'application/json',
  }
  const acked = new Map<string, string>() // title → task id
  const ackTimes: number[] = []
  const statuses: { at: number; status: string }[] = []
  const stopping = new AbortController()
  const caughtUp = new AbortController()
  let next = 0

  const writeUntilAcknowledged = async (writer: number) => {
    while (!stopping.signal.aborted) {
      const n = next++
      const title = `Chaos ${run} ${n}`
      const key = `chaos-${run}-${n}`
      let attempt = writer
      for (;;) {
        const base = bases()[attempt++ % 2]
        let status = 'network'
        try {
          const answer = await request(`${base}/v1/tasks`, {
            method: 'POST',
            headers: { ...headers, 'idempotency-key': key },
            body: JSON.stringify({ title, project_id: projectId }),
            dispatcher,
            headersTimeout: 10_000,
            bodyTimeout: 10_000,
          })
          status = String(answer.statusCode)
          const body = (await answer.body.json()) as { id?: string }
          if (answer.statusCode === 201 || answer.statusCode === 200) {
            acked.set(title, body.id ?? '')
            ackTimes.push(performance.now())
            statuses.push({ at: performance.now(), status })
            break
          }
        } catch {}
        statuses.push({ at: performance.now(), status })
        await sleep(RETRY_MS)
      }
    }
  }

  // The follower: every task.created it is shown, by resource id, counted.
  const followed = new Map<string, number>()
  const follow = async (from: string) => {
    let cursor = from
    let attempt = 0
    while (!caughtUp.signal.aborted) {
      const base = bases()[attempt % 2]
      const query = `?cursor=${encodeURIComponent(cursor)}&wait=2&limit=200`
      try {
        const answer = await request(`${base}/v1/changes${query}`, {
          headers,
          dispatcher,
          headersTimeout: 10_000,
        })
        const body = (await answer.body.json()) as {
          data?: { event: string; resource_id: string }[]
          next_cursor?: string
        }
        if (answer.statusCode !== 200) throw new Error(String(answer.statusCode))
        for (const change of body.data ?? [])
          if (change.event === 'task.created')
            followed.set(change.resource_id, (followed.get(change.resource_id) ?? 0) + 1)
        cursor = body.next_cursor ?? cursor
      } catch {
        attempt++
        await sleep(RETRY_MS)
      }
    }
  }

  // The follower's cursor is taken before the first write: it must see every one.
  const start = await request(`${bases()[0]}/v1/changes`, { headers, dispatcher })
  const following = follow(((await start.body.json()) as { next_cursor: string }).next_cursor)
  const faults: { name: string; at: number }[] = []
  const writing = Array.from({ length: writers }, (_, w) => writeUntilAcknowledged(w))
  try {
    for (const i of [0, 1]) {
      await sleep(stretchMs)
      const victim = instances[i] as Instance
      process.stderr.write(`crashes: kill -9 of instance ${i + 1}…\n`)
      faults.push({ name: `kill -9 of instance ${i + 1}`, at: performance.now() })
      process.kill(victim.pid, 'SIGKILL')
      await sleep(1000)
      instances[i] = await world.start(`crash-${i === 0 ? 'a' : 'b'}-again`)
    }
    await sleep(stretchMs)
    const outage = options.restartPostgres ? 'PostgreSQL restarted' : 'every connection ended'
    process.stderr.write(`crashes: ${outage}…\n`)
    faults.push({ name: outage, at: performance.now() })
    if (options.restartPostgres) await restartPostgres(world)
    else await endConnections(world)
    await sleep(stretchMs)
  } finally {
    stopping.abort()
    await Promise.all(writing)
  }
  // The follower reads on until it has caught up with every acknowledged write, or 30 s.
  const deadline = performance.now() + 30_000
  while ([...acked.values()].some((id) => !followed.has(id)) && performance.now() < deadline)
    await sleep(200)
  caughtUp.abort()
  await following
  const check = await checkGuarantees(world, run, acked, followed)
  await Promise.all(instances.map((s) => s.stop()))
  await dispatcher.close()
  process.stderr.write(`${check.report}\n`)
  return faults.map((fault, i) => {
    const until = faults[i + 1]?.at ?? Number.POSITIVE_INFINITY
    const inside = (at: number) => at >= fault.at && at < until
    const acks = ackTimes.filter(inside).sort((a, b) => a - b)
    const counts: Record<string, number> = {}
    for (const s of statuses.filter((s) => inside(s.at)))
      counts[s.status] = (counts[s.status] ?? 0) + 1
    let gap = (acks[0] ?? until) - fault.at
    for (let k = 1; k < acks.length; k++)
      gap = Math.max(gap, (acks[k] as number) - (acks[k - 1] as number))
    return {
      fault: fault.name,
      acknowledged: acks.length,
      statuses: counts,
      firstAckMs: (acks[0] ?? Number.NaN) - fault.at,
      longestGapMs: gap,
      held: check.held,
    }
  })
}

/** What the database and the follower hold, against what was acknowledged. */
async function checkGuarantees(
  world: ChaosWorld,
  run: string,
  acked: Map<string, string>,
  followed: Map<string, number>,
): Promise<{ held: boolean; report: string }> {
  const db = new pg.Client({ connectionString: world.url })
  await db.connect()
  try {
    const rows = await db.query<{
      title: string
      copies: number
      activity: number
      audit: number
      events: number
    }>(
      `select t.title, count(*)::int as copies,
         min((select count(*) from activity a where a.subject_id = t.id and a.verb = 'task.created'))::int as activity,
         min((select count(*) from audit_log l where l.resource_id = t.id and l.action = 'task.created'))::int as audit,
         min((select count(*) from events e where e.subject_id = t.id and e.type = 'task.created'))::int as events
       from tasks t where t.title like $1 group by t.title`,
      [`Chaos ${run} %`],
    )
    const byTitle = new Map(rows.rows.map((row) => [row.title, row]))
    const lost = [...acked.keys()].filter((title) => !byTitle.has(title)).length
    const twice = rows.rows.filter((row) => row.copies > 1).length
    const records = rows.rows.filter((r) => r.activity !== 1 || r.audit !== 1 || r.events !== 1)
    const unseen = [...acked.values()].filter((id) => !followed.has(id)).length
    const repeated = [...followed.values()].filter((n) => n > 1).length
    const held = lost + twice + records.length + unseen + repeated === 0
    const report =
      `crashes: ${acked.size} writes acknowledged; lost ${lost}, written twice ${twice}, ` +
      `without exactly one activity/audit/outbox entry ${records.length}; the follower missed ` +
      `${unseen} and saw ${repeated} more than once`
    return { held, report }
  } finally {
    await db.end()
  }
}

async function endConnections(world: ChaosWorld): Promise<void> {
  await world.admin.query(
    'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
    [world.dbName],
  )
}

async function restartPostgres(world: ChaosWorld): Promise<void> {
  const version = readdirSync('/etc/postgresql')[0] ?? ''
  // Not spawnSync: the writers and the follower must go on meanwhile, in this process.
  const restart = spawn('pg_ctlcluster', ['--skip-systemctl-redirect', version, 'main', 'restart'])
  let errors = ''
  restart.stderr.on('data', (chunk) => (errors += chunk))
  const [code] = (await once(restart, 'exit')) as [number | null]
  if (code !== 0) throw new Error(`pg_ctlcluster restart failed: ${errors}`)
  await world.reconnect()
}

/** The crash table. */
export function formatCrashes(rows: CrashRow[]): string {
  const statuses = (counts: Record<string, number>) =>
    Object.entries(counts)
      .map(([status, n]) => `${status}: ${n}`)
      .join(', ')
  return [
    '| fault | writes acknowledged after it | answers | first acknowledged after | longest gap | guarantees |',
    '| --- | --- | --- | --- | --- | --- |',
    ...rows.map(
      (r) =>
        `| ${r.fault} | ${r.acknowledged} | ${statuses(r.statuses)} | ${Math.round(r.firstAckMs)} ms | ${Math.round(r.longestGapMs)} ms | ${r.held ? 'held' : 'BROKEN'} |`,
    ),
  ].join('\n')
}

/**
 * `npm run bench:chaos`: the reliability review's runs, on PostgreSQL and the demo workspace.
 *
 * - **crashes**: two `workgraph serve` processes on one database, writers that retry with the same
 *   Idempotency-Key until answered; `kill -9` of each instance in turn (restarted a second later),
 *   then PostgreSQL's connections ended (or, with `--restart-postgres`, the cluster restarted).
 *   Afterwards every acknowledged write must be in the database exactly once, with exactly one
 *   activity, audit and outbox entry.
 * - **receivers**: a healthy webhook endpoint's delivery latency alone and beside endpoints whose
 *   receivers never answer.
 * - **polls**: what idle long polls of the change feed cost, and what busy ones do to writes.
 * - **faults** (`clock`, `lock`, `slow`, `streams`, `disk`, `import`): one instance's clock a
 *   day ahead, a table locked by another session, clients that hold sockets or send bodies a byte
 *   at a time, change streams never read, the embedded database's disk full, `kill -9` of an
 *   embedded import; a row each: writes acknowledged, lost, duplicated, answers by status.
 *
 * Tables go to standard output (bench/README.md, "Chaos runs"), JSON and the servers' logs to
 * bench/results/. Exits non-zero if a guarantee failed.
 *
 *   npm run bench:chaos -- [--only crashes,polls,receivers,clock,lock,slow,streams,disk,import]
 *                          [--polls 500] [--silent 20] [--fault-seconds 10] [--restart-postgres]
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { formatCrashes, runCrashes } from './chaos-crashes.ts'
import {
  diskFull,
  type FaultRow,
  formatFaults,
  heldLock,
  killedImport,
  skewedClock,
  slowClients,
  unreadStreams,
} from './chaos-faults.ts'
import { formatPolls, measurePolls } from './chaos-polls.ts'
import { formatReceivers, measureReceivers } from './chaos-receivers.ts'
import { openChaosWorld } from './chaos-world.ts'

const FAULTS = ['clock', 'lock', 'slow', 'streams', 'disk', 'import']

const { values } = parseArgs({
  options: {
    only: { type: 'string', default: `crashes,polls,receivers,${FAULTS.join(',')}` },
    'fault-seconds': { type: 'string', default: '10' },
    polls: { type: 'string', default: '500' },
    silent: { type: 'string', default: '20' },
    'idle-seconds': { type: 'string', default: '35' },
    'load-seconds': { type: 'string', default: '10' },
    'restart-postgres': { type: 'boolean', default: false },
  },
})
const only = new Set(values.only.split(','))
const root = resolve(import.meta.dirname, '..')
const results = join(root, 'bench/results')
const stamp = new Date().toISOString().replace(/[:.]/g, '-')
mkdirSync(results, { recursive: true })
mkdirSync(join(root, '.tmp'), { recursive: true })

const world = await openChaosWorld(root, results, stamp)
const report: Record<string, unknown> = {}
let failed = false
try {
  if (only.has('crashes')) {
    const crashes = await runCrashes(world, { restartPostgres: values['restart-postgres'] })
    report.crashes = crashes
    failed ||= crashes.some((row) => !row.held)
    console.log(`\nCrashes and outages (two instances, PostgreSQL):\n${formatCrashes(crashes)}`)
  }
  if (only.has('polls')) {
    const polls = await measurePolls(world, {
      polls: Number(values.polls),
      idleSeconds: Number(values['idle-seconds']),
      loadSeconds: Number(values['load-seconds']),
    })
    report.polls = polls
    console.log(`\nLong polls of the change feed:\n${formatPolls(polls)}`)
  }
  if (only.has('receivers')) {
    const receivers = await measureReceivers(world, { silent: Number(values.silent) })
    report.receivers = receivers
    console.log(`\nSlow receivers:\n${formatReceivers(receivers)}`)
  }
  const seconds = Number(values['fault-seconds'])
  const faults: FaultRow[] = []
  const runs: [string, () => Promise<FaultRow>][] = [
    ['clock', () => skewedClock(world, seconds)],
    ['lock', () => heldLock(world, seconds)],
    // Past the request timeout (30 s), so that every slow body has been ended.
    ['slow', () => slowClients(world, Math.max(seconds, 35))],
    ['streams', () => unreadStreams(world, seconds)],
    ['disk', () => diskFull(root, seconds)],
    ['import', () => killedImport(root)],
  ]
  for (const [name, run] of runs) {
    if (!only.has(name)) continue
    process.stderr.write(`faults: ${name}…\n`)
    faults.push(await run())
  }
  if (faults.length > 0) {
    report.faults = faults
    failed ||= faults.some((row) => !row.held)
    console.log(`\nFaults:\n${formatFaults(faults)}`)
  }
} finally {
  await world.close()
}
const file = join(results, `chaos-${stamp}.json`)
writeFileSync(file, JSON.stringify(report, null, 2))
console.log(`\nJSON: ${file}`)
process.exitCode = failed ? 1 : 0

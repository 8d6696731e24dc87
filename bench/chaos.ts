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
 *
 * Tables go to standard output (bench/README.md, "Chaos runs"), JSON and the servers' logs to
 * bench/results/. Exits non-zero if a guarantee failed.
 *
 *   npm run bench:chaos -- [--only crashes,polls,receivers] [--polls 500] [--silent 20]
 *                          [--restart-postgres]
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { formatCrashes, runCrashes } from './chaos-crashes.ts'
import { formatPolls, measurePolls } from './chaos-polls.ts'
import { formatReceivers, measureReceivers } from './chaos-receivers.ts'
import { openChaosWorld } from './chaos-world.ts'

const { values } = parseArgs({
  options: {
    only: { type: 'string', default: 'crashes,polls,receivers' },
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
} finally {
  await world.close()
}
const file = join(results, `chaos-${stamp}.json`)
writeFileSync(file, JSON.stringify(report, null, 2))
console.log(`\nJSON: ${file}`)
process.exitCode = failed ? 1 : 0

import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { type ChaosWorld, memberProject, startChild } from './chaos-world.ts'
import { loadRoute, loadTaskCreation } from './http-load.ts'
import { CpuMeter } from './soak-cpu.ts'

/** One row of the long-poll table. */
export interface PollRow {
  phase: string
  transactionsPerSecond: number
  serverCpu: number
  databaseCpu: number
  writeP50?: number
  writeP99?: number
  writesPerSecond?: number
  listP99?: number
  pollsAnswered?: number
}

/** How the long-poll scenario runs. */
export interface PollOptions {
  polls: number
  /** Seconds each idle phase is measured over: at least a poll's wait, so each asks again once. */
  idleSeconds: number
  /** Seconds of each write and list load. */
  loadSeconds: number
}

/**
 * Long polls of the change feed against one server: what `--polls` idle polls cost the database
 * (transactions a second, by PostgreSQL's own count) and the CPUs, and what the same polls do to
 * writes and lists when the writes wake them (the polls follow the member, who sees every task
 * written: busy polls). Each load runs once without the polls and once with them.
 */
export async function measurePolls(world: ChaosWorld, options: PollOptions): Promise<PollRow[]> {
  const server = await world.start('polls')
  const rows: PollRow[] = []
  try {
    const projectId = await memberProject(server.base, world.tokens.member)
    const body = { title: 'Chaos bench write', project_id: projectId }
    const idle = async (phase: string) => {
      const serverCpu = new CpuMeter()
      serverCpu.read([server.pid])
      await world.databaseCpu()
      const before = await world.transactions()
      await sleep(options.idleSeconds * 1000)
      const after = await world.transactions()
      rows.push({
        phase,
        transactionsPerSecond: (after - before) / options.idleSeconds,
        serverCpu: serverCpu.read([server.pid]),
        databaseCpu: await world.databaseCpu(),
      })
    }
    const load = async (phase: string) => {
      const serverCpu = new CpuMeter()
      serverCpu.read([server.pid])
      await world.databaseCpu()
      const before = await world.transactions()
      const started = performance.now()
      const duration = options.loadSeconds
      const writes = await loadTaskCreation(server.base, world.tokens.owner, body, {
        duration,
        connections: 10,
      })
      const lists = await loadRoute(`${server.base}/v1/projects`, world.tokens.member, {
        duration,
        connections: 10,
      })
      const seconds = (performance.now() - started) / 1000
      rows.push({
        phase,
        transactionsPerSecond: ((await world.transactions()) - before) / seconds,
        serverCpu: serverCpu.read([server.pid]),
        databaseCpu: await world.databaseCpu(),
        writeP50: writes.p50,
        writeP99: writes.p99,
        writesPerSecond: writes.requestsPerSecond,
        listP99: lists.p99,
      })
    }
    const withPolls = async (run: () => Promise<void>) => {
      const pollers = await startChild(join(world.root, 'bench/chaos-pollers.ts'), [
        '--base',
        server.base,
        '--token',
        world.tokens.member,
        '--polls',
        String(options.polls),
      ])
      await sleep(8_000) // every poll started and waiting
      await run()
      const counts = (await pollers.stop()) as { answered: number; failed: number }
      const last = rows.at(-1)
      if (last) last.pollsAnswered = counts.answered
      if (counts.failed > 0) process.stderr.write(`  ${counts.failed} polls failed\n`)
    }
    process.stderr.write(`long polls: idle, without polls (${options.idleSeconds} s)…\n`)
    await idle('idle, no polls')
    process.stderr.write(`long polls: idle, ${options.polls} polls…\n`)
    await withPolls(() => idle(`idle, ${options.polls} polls`))
    process.stderr.write('long polls: writes and lists, without polls…\n')
    await load('writes + lists, no polls')
    process.stderr.write(`long polls: writes and lists, ${options.polls} busy polls…\n`)
    await withPolls(() => load(`writes + lists, ${options.polls} polls`))
  } finally {
    await server.stop()
  }
  return rows
}

/** The long-poll table, with the two goals' ratios under it. */
export function formatPolls(rows: PollRow[]): string {
  const ms = (value: number | undefined) => (value === undefined ? '' : `${Math.round(value)}`)
  const lines = [
    '| phase | transactions/s | server CPU % | PostgreSQL CPU % | writes/s | write p50 ms | write p99 ms | list p99 ms | polls answered |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...rows.map(
      (r) =>
        `| ${r.phase} | ${Math.round(r.transactionsPerSecond)} | ${Math.round(r.serverCpu)} | ${Math.round(r.databaseCpu)} | ${ms(r.writesPerSecond)} | ${ms(r.writeP50)} | ${ms(r.writeP99)} | ${ms(r.listP99)} | ${r.pollsAnswered ?? ''} |`,
    ),
  ]
  const [idleAlone, idlePolls, loadAlone, loadPolls] = rows
  if (idleAlone && idlePolls)
    lines.push(
      `\nIdle polls cost ${Math.round(idlePolls.transactionsPerSecond - idleAlone.transactionsPerSecond)} transactions/s (goal: under 50).`,
    )
  if (loadAlone?.writeP99 && loadPolls?.writeP99)
    lines.push(
      `Write p99 with the polls: ${(loadPolls.writeP99 / loadAlone.writeP99).toFixed(2)}× without (goal: under 2×).`,
    )
  return lines.join('\n')
}

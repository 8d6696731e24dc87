import { createServer as createHttpServer } from 'node:http'
import { createServer, type Socket } from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'
import { type ChaosWorld, memberProject } from './chaos-world.ts'

/** A healthy endpoint's delivery latency in one setting. */
export interface ReceiverRow {
  setting: string
  deliveries: number
  p50: number
  p99: number
  max: number
}

const WRITES = 40
const WRITE_EVERY_MS = 100

/**
 * A healthy webhook endpoint (its receiver answers 200 at once), alone and then beside `silent`
 * endpoints whose receiver accepts the connection and never answers: from each write's
 * acknowledgement to the healthy receiver's arrival, in ms, for 40 writes 100 ms apart.
 */
export async function measureReceivers(
  world: ChaosWorld,
  options: { silent: number },
): Promise<ReceiverRow[]> {
  const server = await world.start('receivers', { WEBHOOKS_ALLOW_HTTP_LOOPBACK: 'true' })
  const arrivals = new Map<string, number>()
  const healthy = createHttpServer((req, res) => {
    let body = ''
    req.on('data', (chunk) => (body += chunk))
    req.on('end', () => {
      const title = JSON.parse(body)?.data?.object?.title
      if (typeof title === 'string' && !arrivals.has(title)) arrivals.set(title, performance.now())
      res.writeHead(200).end()
    })
  })
  const sockets = new Set<Socket>()
  const silent = createServer((socket) => {
    sockets.add(socket)
    socket.on('error', () => undefined)
    socket.on('close', () => sockets.delete(socket))
  })
  const listen = (s: ReturnType<typeof createServer>) =>
    new Promise<number>((done) =>
      s.listen(0, '127.0.0.1', () => done((s.address() as { port: number }).port)),
    )
  const healthyPort = await listen(healthy)
  const silentPort = await listen(silent)
  const api = (path: string, body: unknown) =>
    fetch(`${server.base}${path}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${world.tokens.owner}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify(body),
    }).then(async (answer) => {
      if (!answer.ok) throw new Error(`${path}: ${answer.status} ${await answer.text()}`)
      return answer.json() as Promise<{ id: string }>
    })
  const rows: ReceiverRow[] = []
  try {
    const projectId = await memberProject(server.base, world.tokens.owner)
    const round = async (setting: string) => {
      const acked = new Map<string, number>()
      for (let i = 0; i < WRITES; i++) {
        const title = `Receivers ${setting} ${i}`
        await api('/v1/tasks', { title, project_id: projectId })
        acked.set(title, performance.now())
        await sleep(WRITE_EVERY_MS)
      }
      const deadline = performance.now() + 60_000
      while ([...acked.keys()].some((t) => !arrivals.has(t)) && performance.now() < deadline)
        await sleep(100)
      const latencies = [...acked]
        .filter(([title]) => arrivals.has(title))
        .map(([title, at]) => (arrivals.get(title) as number) - at)
        .sort((a, b) => a - b)
      const at = (p: number) => latencies[Math.ceil(p * latencies.length) - 1] ?? Number.NaN
      rows.push({
        setting,
        deliveries: latencies.length,
        p50: at(0.5),
        p99: at(0.99),
        max: latencies.at(-1) ?? Number.NaN,
      })
    }
    const hook = (port: number, path: string) => ({
      url: `http://127.0.0.1:${port}/${path}`,
      events: ['task.created'],
    })
    const made = [await api('/v1/webhooks', hook(healthyPort, 'healthy'))]
    process.stderr.write('receivers: a healthy endpoint alone…\n')
    await round('healthy endpoint alone')
    for (let i = 0; i < options.silent; i++)
      made.push(await api('/v1/webhooks', hook(silentPort, `s${i}`)))
    process.stderr.write(`receivers: beside ${options.silent} that never answer…\n`)
    await round(`beside ${options.silent} receivers that never answer`)
    // Their deliveries would go on being retried, under whatever the bench measures next.
    for (const { id } of made)
      await fetch(`${server.base}/v1/webhooks/${id}`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${world.tokens.owner}` },
      })
  } finally {
    for (const socket of sockets) socket.destroy()
    await server.stop()
    healthy.close()
    silent.close()
  }
  return rows
}

/** The slow-receiver table. */
export function formatReceivers(rows: ReceiverRow[]): string {
  return [
    '| healthy endpoint | deliveries | p50 ms | p99 ms | max ms |',
    '| --- | --- | --- | --- | --- |',
    ...rows.map(
      (r) =>
        `| ${r.setting} | ${r.deliveries}/${WRITES} | ${Math.round(r.p50)} | ${Math.round(r.p99)} | ${Math.round(r.max)} |`,
    ),
  ].join('\n')
}

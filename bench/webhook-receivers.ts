import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

/** Receivers for the webhook bench: one port per endpoint, each answering 200 at once. */
export interface Receivers {
  /** One URL per endpoint, each on its own port (its own origin, so its own connection pool). */
  readonly urls: readonly string[]
  /** When each (event, endpoint) first arrived, by `deliveryKey`. */
  readonly arrivals: Map<string, number>
  /** Every request received, repeats included. */
  received(): number
  close(): Promise<void>
}

/** What a delivery is counted as: an event received by one endpoint. */
export function deliveryKey(eventId: string, endpoint: number): string {
  return `${eventId}@${endpoint}`
}

/** Starts `count` receivers on loopback ports chosen by the system. */
export async function startReceivers(count: number): Promise<Receivers> {
  const arrivals = new Map<string, number>()
  let received = 0
  const servers: Server[] = []
  const urls: string[] = []
  for (let endpoint = 0; endpoint < count; endpoint++) {
    const server = createServer((req, res) => {
      // The body is read whole, as a receiver verifying its signature would.
      req.resume()
      req.on('end', () => {
        received++
        const id = req.headers['x-service-event-id']
        const key = typeof id === 'string' ? deliveryKey(id, endpoint) : null
        if (key && !arrivals.has(key)) arrivals.set(key, Date.now())
        res.writeHead(200).end('ok')
      })
    })
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
    servers.push(server)
    urls.push(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hook/${endpoint}`)
  }
  return {
    urls,
    arrivals,
    received: () => received,
    async close() {
      for (const server of servers) server.closeAllConnections()
      await Promise.all(servers.map((server) => new Promise((done) => server.close(done))))
    },
  }
}

import { timingSafeEqual } from 'node:crypto'
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { ATTEMPT_TIMEOUT_MS } from '../webhooks/delivery-sender.ts'
import { standardSignature } from '../webhooks/webhook-signature.ts'

// The headers a delivery carries (docs/webhooks.md, "The request"), passed on as they came: the
// signatures and what they sign, and the event's and the attempt's ids.
const FORWARDED_HEADER = /^(content-type|user-agent|webhook-.+|x-service-.+)$/

// How long the forward target has to answer: under the dispatcher's own limit, so that a slow app
// is a failed attempt the server retries, as it would be if the server called the app itself.
const FORWARD_TIMEOUT_MS = ATTEMPT_TIMEOUT_MS - 2_000

/** What happened to one delivery, as `workgraph listen` prints it. */
export interface Forwarded {
  event: string
  id: string
  /** The forward target's status, or null when it could not be reached. */
  status: number | null
  ms: number
  /** Why it was not forwarded or not answered, when it was not. */
  problem?: string
}

/**
 * A receiver on a loopback port that passes each delivery signed with `secret` on to
 * `forwardTo`, byte for byte with its signature headers, and answers the server with the target's
 * status (so the server retries what the local app failed, as it would retry the app itself). A
 * request not signed with the secret (any other process on this machine may call the port) is
 * answered 401 and goes nowhere.
 */
export class WebhookForwarder {
  readonly #server: Server
  readonly #forwardTo: URL
  readonly #heard: (forwarded: Forwarded) => void
  #secret: string | null = null

  constructor(forwardTo: URL, heard: (forwarded: Forwarded) => void) {
    this.#forwardTo = forwardTo
    this.#heard = heard
    this.#server = createServer((request, response) => {
      void this.#receive(request).then(
        (status) => response.writeHead(status).end(),
        () => response.writeHead(500).end(),
      )
    })
  }

  /** Listens on an unused loopback port; returns the URL the server delivers to. */
  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve))
    const { port } = this.#server.address() as AddressInfo
    return `http://127.0.0.1:${port}/`
  }

  /** The endpoint's signing secret, known once the endpoint is made with `start`'s URL. */
  trust(secret: string): void {
    this.#secret = secret
  }

  /** Stops listening. */
  close(): Promise<void> {
    this.#server.closeAllConnections()
    return new Promise((resolve) => this.#server.close(() => resolve()))
  }

  async #receive(request: IncomingMessage): Promise<number> {
    const chunks: Buffer[] = []
    for await (const chunk of request) chunks.push(chunk as Buffer)
    const body = Buffer.concat(chunks).toString('utf8')
    const id = String(request.headers['webhook-id'] ?? '')
    const event = eventType(body)
    if (request.method !== 'POST' || !this.#signed(request, id, body)) {
      this.#heard({
        event,
        id,
        status: null,
        ms: 0,
        problem: 'not signed by the endpoint: ignored',
      })
      return 401
    }
    const started = performance.now()
    const headers = Object.fromEntries(
      Object.entries(request.headers).flatMap(([name, value]) =>
        FORWARDED_HEADER.test(name) && typeof value === 'string' ? [[name, value]] : [],
      ),
    )
    try {
      const answer = await fetch(this.#forwardTo, {
        method: 'POST',
        headers,
        body,
        redirect: 'manual',
        signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS),
      })
      await answer.arrayBuffer()
      const ms = Math.round(performance.now() - started)
      this.#heard({ event, id, status: answer.status, ms })
      // The server reads any 2xx as delivered, and retries anything else.
      return answer.status >= 200 && answer.status < 300 ? 200 : 502
    } catch (error) {
      const ms = Math.round(performance.now() - started)
      this.#heard({ event, id, status: null, ms, problem: (error as Error).message })
      return 502
    }
  }

  // Whether a `webhook-signature` entry is the endpoint's signature of this message.
  #signed(request: IncomingMessage, id: string, body: string): boolean {
    const secret = this.#secret
    const timestamp = Number(request.headers['webhook-timestamp'])
    const given = String(request.headers['webhook-signature'] ?? '').split(' ')
    if (!secret || !id || !Number.isInteger(timestamp)) return false
    const expected = Buffer.from(standardSignature(secret, id, timestamp, body))
    return given.some((entry) => {
      const candidate = Buffer.from(entry)
      return candidate.length === expected.length && timingSafeEqual(candidate, expected)
    })
  }
}

// The event's type, read from the body for the printed line; `?` when it has none.
function eventType(body: string): string {
  try {
    const type = (JSON.parse(body) as { type?: unknown }).type
    return typeof type === 'string' ? type : '?'
  } catch {
    return '?'
  }
}

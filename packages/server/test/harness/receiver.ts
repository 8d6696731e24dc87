import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/** One request as the receiver got it: the raw bytes, exactly as they arrived. */
export interface Received {
  /** The path and query the request was sent to. */
  url: string
  headers: IncomingHttpHeaders
  raw: Buffer
  // biome-ignore lint/suspicious/noExplicitAny: receivers read arbitrary JSON
  json: any
  at: number
}

/** How the receiver answers one request; the default is 200 "ok". */
export type Answer = (request: Received, response: ServerResponse) => void

/** A webhook receiver on loopback that records every request and answers as scripted. */
export interface Receiver {
  url: string
  received: Received[]
  /** Answers for the next requests, in order; then `fallback`. */
  script(...answers: Answer[]): void
  fallback: Answer
  close(): Promise<void>
}

/** An answer with a status, optional headers and body. */
export const reply =
  (status: number, headers: Record<string, string> = {}, body = ''): Answer =>
  (_request, response) => {
    response.writeHead(status, headers).end(body)
  }

/** Starts a receiver on 127.0.0.1 at a free port. */
export async function startReceiver(path = '/hook'): Promise<Receiver> {
  const queue: Answer[] = []
  const receiver: Receiver = {
    url: '',
    received: [],
    script: (...answers) => queue.push(...answers),
    fallback: reply(200, {}, 'ok'),
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections()
        server.close(() => done())
      }),
  }
  const server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      const raw = Buffer.concat(chunks)
      let json: unknown
      try {
        json = JSON.parse(raw.toString('utf8'))
      } catch {
        json = undefined
      }
      const received = {
        url: request.url ?? '',
        headers: request.headers,
        raw,
        json,
        at: Date.now(),
      }
      receiver.received.push(received)
      ;(queue.shift() ?? receiver.fallback)(received, response)
    })
  })
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`
  return receiver
}

import type { Socket } from 'node:net'
import type { FastifyInstance } from 'fastify'
import { ProblemError } from '../api/problem-catalogue.ts'
import { newId } from '../lib/ids.ts'
import { rawProblemResponse } from './http-layer-errors.ts'

/** How long a connection may wait for what it owes (docs/configuration.md). */
export interface SocketTimeouts {
  /** A new connection's first request must start within this. */
  readonly firstRequestMs: number
  /** The longest gap between two parts of a request body. */
  readonly bodyIdleMs: number
}

/**
 * What Node's own bounds leave open: a connection that never sends a request (Node's header
 * timeout starts with the first byte), and a body sent a byte now and then (its request timeout
 * bounds the whole request, this the gaps in it). A connection that idles too long before its
 * first request is closed; a body that stops arriving is answered 408 `request_timeout` and its
 * connection closed. Once a body has arrived the connection may wait as long as its answer takes
 * (long polls, change streams); between requests Node's keep-alive timeout applies.
 */
export function installSocketTimeouts(
  app: FastifyInstance,
  timeouts: SocketTimeouts,
  publicUrl: string,
): void {
  // The request each connection is waiting for the body of.
  const waiting = new WeakMap<Socket, { complete: boolean }>()
  app.server.on('connection', (socket: Socket) => socket.setTimeout(timeouts.firstRequestMs))
  // The server's listener, not the socket's: with one, Node leaves every timed-out socket to it
  // (those of keep-alive too) rather than destroying it before an answer is written.
  app.server.on('timeout', (socket: Socket) => {
    const message = waiting.get(socket)
    if (!message || message.complete || !socket.writable) return socket.destroy()
    waiting.delete(socket)
    const problem = new ProblemError('request_timeout', 'The request body stopped arriving.')
    socket.end(rawProblemResponse(problem, newId('request'), publicUrl), () => socket.destroy())
  })
  app.addHook('onRequest', async (request) => {
    const socket = request.raw.socket as Socket | undefined
    // A request injected in-process (tests, benchmarks) has no real connection.
    if (typeof socket?.setTimeout !== 'function') return
    const length = request.headers['content-length']
    const chunked = request.headers['transfer-encoding'] !== undefined
    if (!chunked && (length === undefined || length === '0')) {
      socket.setTimeout(0)
      return
    }
    waiting.set(socket, request.raw)
    socket.setTimeout(timeouts.bodyIdleMs)
  })
  // The body has arrived (or the request ended otherwise).
  const done = async (request: { raw: { socket?: Socket | null } }) => {
    const socket = request.raw.socket
    if (!socket || !waiting.has(socket) || typeof socket.setTimeout !== 'function') return
    waiting.delete(socket)
    socket.setTimeout(0)
  }
  app.addHook('preValidation', done)
  app.addHook('onResponse', done)
}

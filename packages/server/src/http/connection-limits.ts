import { readFileSync } from 'node:fs'
import type { Server } from 'node:http'
import type { Socket } from 'node:net'
import type { FastifyInstance } from 'fastify'
import { ProblemError } from '../api/problem-catalogue.ts'

/** How many connections the process and one client may hold (docs/configuration.md). */
export interface ConnectionLimits {
  readonly maxConnections: number
  /** 0: no limit per client. */
  readonly maxConnectionsPerClient: number
}

// Connections past the limit kept for health checks, so a full server still says it is alive.
const HEALTH_RESERVE = 16
// File descriptors left for everything but client connections: the database pool, the data
// folder's files, the LISTEN connection, logs.
const FD_RESERVE = 128
const HEALTH_PATHS = new Set(['/healthz', '/readyz'])
const OVER = Symbol('over the connection limit')

/**
 * Bounds what connections can take from everyone else. One client (a remote address) holds at
 * most `maxConnectionsPerClient`: past it a new connection is closed at once, so a client that
 * opens thousands of idle sockets is refused, not everyone. The process holds at most
 * `maxConnections` for requests, and a few more that only health checks may use (the rest get
 * 503 with Retry-After), and never so many that the database pool could not open a file: the
 * limit is lowered below the process's open-file limit. Returns the limit in force.
 */
export function limitConnections(
  app: FastifyInstance,
  limits: ConnectionLimits,
  openFileLimit: number | null = readOpenFileLimit(),
): number {
  const server: Server = app.server
  const room = openFileLimit === null ? Number.POSITIVE_INFINITY : openFileLimit - FD_RESERVE
  const soft = Math.max(1, Math.min(limits.maxConnections, room - HEALTH_RESERVE))
  server.maxConnections = soft + HEALTH_RESERVE
  const perClient = new Map<string, number>()
  let open = 0
  server.on('connection', (socket: Socket) => {
    const client = socket.remoteAddress ?? ''
    const held = perClient.get(client) ?? 0
    if (limits.maxConnectionsPerClient > 0 && held >= limits.maxConnectionsPerClient) {
      socket.destroy()
      return
    }
    perClient.set(client, held + 1)
    open++
    if (open > soft) (socket as Socket & { [OVER]?: boolean })[OVER] = true
    socket.once('close', () => {
      open--
      const left = (perClient.get(client) ?? 1) - 1
      if (left === 0) perClient.delete(client)
      else perClient.set(client, left)
    })
  })
  app.addHook('onRequest', async (request, reply) => {
    const socket = request.raw.socket as (Socket & { [OVER]?: boolean }) | undefined
    if (!socket?.[OVER] || HEALTH_PATHS.has(request.url.split('?')[0] ?? '')) return
    reply.header('connection', 'close')
    throw new ProblemError(
      'service_unavailable',
      'The server holds as many connections as it may; retry shortly.',
      { headers: { 'retry-after': '1' } },
    )
  })
  return soft
}

/** This process's soft limit of open files (Linux), or null when it cannot be read. */
export function readOpenFileLimit(): number | null {
  try {
    const line = readFileSync('/proc/self/limits', 'utf8')
      .split('\n')
      .find((row) => row.startsWith('Max open files'))
    const soft = line?.split(/\s{2,}/)[1]
    return soft && /^\d+$/.test(soft) ? Number(soft) : null
  } catch {
    return null
  }
}

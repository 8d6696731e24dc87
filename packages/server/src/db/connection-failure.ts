/**
 * Whether an error means the database could not be reached or dropped the connection, rather
 * than that a statement was wrong: such a request changed nothing it acknowledged, and the same
 * request may succeed once the database is back (so it is answered 503 with Retry-After).
 */
export function isConnectionFailure(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false
  const { code, message } = error as { code?: unknown; message?: unknown }
  if (typeof code === 'string' && (CONNECTION_CODES.has(code) || code.startsWith('08'))) return true
  // pg reports a socket that closed under a client, or a client that was already broken, with
  // no code at all: only its messages tell.
  return (
    typeof message === 'string' && PG_CONNECTION_MESSAGES.some((text) => message.includes(text))
  )
}

// Node's socket errors, and PostgreSQL's "admin shutdown", "crash shutdown", "cannot connect now"
// (starting up or shutting down). Class 08 (connection exceptions) is matched by its prefix.
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  '57P01',
  '57P02',
  '57P03',
])

const PG_CONNECTION_MESSAGES = [
  'Connection terminated',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
]

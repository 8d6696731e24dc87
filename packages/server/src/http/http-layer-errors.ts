import { type IncomingMessage, type ServerResponse, STATUS_CODES } from 'node:http'
import type { Socket } from 'node:net'
import type { Duplex } from 'node:stream'
import type { ConnectionError } from 'fastify'
import { problemBody } from '../api/problem-body.ts'
import { ProblemError } from '../api/problem-catalogue.ts'
import { newId } from '../lib/ids.ts'
import { requestId } from './request-id.ts'

/**
 * The problem for a request Node's HTTP parser refused. Its reasons (llhttp's, such as "Invalid
 * header value char") are fixed texts, safe to show.
 */
export function parserProblem(error: ConnectionError): ProblemError {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return new ProblemError(
        'request_header_fields_too_large',
        'The request headers are larger than the limit (16 KiB).',
      )
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return new ProblemError(
        'payload_too_large',
        'The chunk extensions are larger than the limit.',
      )
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new ProblemError('request_timeout', 'The request did not arrive in time.')
  }
  const reason = (error as { reason?: unknown }).reason
  return new ProblemError(
    'invalid_request',
    `The request is not valid HTTP/1.1${typeof reason === 'string' ? `: ${reason}` : ''}.`,
  )
}

/** A whole HTTP/1.1 response for a problem, for where there is no Fastify reply to send it with. */
export function rawProblemResponse(problem: ProblemError, id: string, publicUrl: string): string {
  const body = JSON.stringify(problemBody(problem, id, publicUrl))
  return [
    `HTTP/1.1 ${problem.status} ${STATUS_CODES[problem.status] ?? ''}`,
    'content-type: application/problem+json; charset=utf-8',
    `content-length: ${Buffer.byteLength(body)}`,
    `x-request-id: ${id}`,
    ...Object.entries(problem.extras.headers ?? {}).map(([name, value]) => `${name}: ${value}`),
    'connection: close',
    '',
    body,
  ].join('\r\n')
}

/**
 * Fastify's `clientErrorHandler`: a request Node could not parse gets its problem+json and the
 * connection is closed, since nothing after the bad bytes can be trusted to start a request.
 */
export function clientErrorHandler(publicUrl: string) {
  return (error: ConnectionError, socket: Socket): void => {
    if (error.code === 'ECONNRESET' || socket.destroyed) return
    // As Node's own handler: never write into a response already under way on this connection.
    const inFlight = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage
    if (!socket.writable || inFlight?.headersSent) {
      socket.destroy()
      return
    }
    const response = rawProblemResponse(parserProblem(error), newId('request'), publicUrl)
    socket.end(response, () => socket.destroy())
  }
}

/**
 * Node's `connect` event: a CONNECT asks for a tunnel, and this server is no proxy. Without a
 * listener Node would drop the connection without a word; this answers 405 (no path allows it,
 * hence the empty Allow).
 */
export function refuseConnect(publicUrl: string) {
  return (request: IncomingMessage, socket: Duplex): void => {
    const problem = new ProblemError(
      'method_not_allowed',
      'CONNECT is not allowed: this server is not a proxy.',
      { headers: { allow: '' } },
    )
    socket.end(rawProblemResponse(problem, requestId(request), publicUrl), () => socket.destroy())
  }
}

/** Node's `checkExpectation` event: an `Expect` other than 100-continue is a 417 (RFC 9110). */
export function expectationFailed(publicUrl: string) {
  return (request: IncomingMessage, response: ServerResponse): void => {
    const id = requestId(request)
    const problem = new ProblemError(
      'expectation_failed',
      'The only expectation this server meets is "Expect: 100-continue".',
    )
    const body = JSON.stringify(problemBody(problem, id, publicUrl))
    response.writeHead(problem.status, {
      'content-type': 'application/problem+json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
      'x-request-id': id,
      connection: 'close',
    })
    response.end(body)
  }
}

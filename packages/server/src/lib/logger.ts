import { type DestinationStream, type Logger, pino } from 'pino'

/**
 * Options of the structured (pino) request log. Fastify logs method, URL, status and timing, never
 * headers; the redaction paths are a second line of defence should a header or body ever be
 * logged: tokens, cookies and passwords are replaced before anything is written. Lines go to
 * stdout unless a `destination` is given (tests read them).
 */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = {
    level,
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'res.headers["set-cookie"]',
        '*.password',
        '*.token',
        '*.secret',
        '*.client_secret',
        '*.refresh_token',
        '*.access_token',
        '*.code_verifier',
      ],
      censor: '[redacted]',
    },
  }
  return destination ? pino(options, destination) : pino(options)
}

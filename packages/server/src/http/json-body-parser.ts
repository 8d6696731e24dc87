import type { FastifyInstance } from 'fastify'
import { ProblemError } from '../api/problem-catalogue.ts'

const utf8 = new TextDecoder('utf-8', { fatal: true })

/**
 * JSON bodies are parsed as UTF-8, which JSON must be: bytes that are not are a 400. Decoded
 * leniently they become replacement characters, and the body valid JSON that a route reading no
 * body (a DELETE) would accept, or that a text field would store as something nobody sent.
 * Prototype keys stay a 400, as with Fastify's own parser.
 */
export function installJsonBodyParser(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error')
  app.removeContentTypeParser('application/json')
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    let text: string
    try {
      text = utf8.decode(body as Buffer)
    } catch {
      done(new ProblemError('invalid_request', 'The request body is not valid UTF-8.'), undefined)
      return
    }
    parse(request, text, done)
  })
}

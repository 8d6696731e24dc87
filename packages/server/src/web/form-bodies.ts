import formBody from '@fastify/formbody'
import type { FastifyInstance } from 'fastify'

/** The most a page's form may send: far more than any form of ours needs. */
const FORM_BODY_LIMIT = 16 * 1024

/**
 * Makes an instance of pages read what their forms send, and nothing else: urlencoded bodies of
 * up to 16 KiB. Any other type of body (JSON, multipart, text) is a 415, which the pages' error
 * handler answers with its page, so no page ever walks a body shaped by something else.
 */
export async function formBodiesOnly(app: FastifyInstance): Promise<void> {
  app.removeAllContentTypeParsers()
  await app.register(formBody, { bodyLimit: FORM_BODY_LIMIT })
}

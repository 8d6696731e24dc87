import type { FastifyReply } from 'fastify'

/**
 * Sends JSON that was already serialized: for budgeted responses, whose token count must be the
 * count of the very bytes sent (Fastify sends strings as they are).
 */
export function sendJsonText(reply: FastifyReply, text: string): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(text)
}

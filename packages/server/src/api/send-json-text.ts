/** What sending a text body needs of a reply (Fastify's, for one). */
export interface TextReply<R> {
  type(contentType: string): { send(body: unknown): R }
}

/**
 * Sends JSON that was already serialized: for budgeted responses, whose token count must be the
 * count of the very bytes sent (Fastify sends strings as they are).
 */
export function sendJsonText<R>(reply: TextReply<R>, text: string): R {
  return reply.type('application/json; charset=utf-8').send(text)
}

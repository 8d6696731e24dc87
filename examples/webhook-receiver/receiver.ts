/**
 * A webhook receiver on Fastify that trusts only what verifyWebhook accepts: the signature over
 * the raw bytes, a fresh `sent_at`, and each event once.
 *
 *   WORKGRAPH_WEBHOOK_SECRET=whsec_… PORT=3000 node examples/webhook-receiver/receiver.ts
 */
import { verifyWebhook, WebhookVerificationError, type WorkgraphEvent } from '@workgraph/sdk'
import Fastify, { type FastifyInstance } from 'fastify'

/** What the receiver needs: the endpoint's secrets (old and new during a rotation) and a handler. */
export interface ReceiverOptions {
  secrets: string[]
  onEvent: (event: WorkgraphEvent) => void | Promise<void>
}

/** Builds the receiver: `POST /workgraph` answers 2xx for each accepted event, 400 otherwise. */
export function buildReceiver(options: ReceiverOptions): FastifyInstance {
  const app = Fastify()
  // The signature is over the exact bytes sent: keep them, never re-serialize parsed JSON.
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) =>
    done(null, body),
  )
  // Ids already handled. A real service keeps them in its database, in the same transaction as
  // its side effects, for at least 7 days.
  const seen = new Set<string>()

  app.post('/workgraph', async (request, reply) => {
    let event: WorkgraphEvent
    try {
      event = verifyWebhook(request.body as Buffer, request.headers, options.secrets)
    } catch (error) {
      if (!(error instanceof WebhookVerificationError)) throw error
      return reply.code(400).send({ refused: error.reason })
    }
    // Retries and replays repeat the event id: answer 2xx again and do nothing twice.
    if (seen.has(event.id)) return reply.code(200).send({ duplicate: true })
    seen.add(event.id)
    await options.onEvent(event)
    return reply.code(200).send({ received: event.id })
  })
  return app
}

if (import.meta.main) {
  const secret = process.env.WORKGRAPH_WEBHOOK_SECRET
  if (!secret) throw new Error('Set WORKGRAPH_WEBHOOK_SECRET to the whsec_… of your endpoint.')
  const app = buildReceiver({
    secrets: [secret],
    onEvent: (event) => {
      // Narrowed by `type`: each event's object has its own record type.
      if (event.type === 'task.created') console.log(`New task: ${event.data.object.title}`)
      else console.log(`${event.type} ${event.data.object.id}`)
    },
  })
  await app.listen({ port: Number(process.env.PORT ?? 3000), host: '127.0.0.1' })
}

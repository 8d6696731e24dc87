import type { EventData } from './delivery-queue.ts'
import { serviceSignature, standardSignature } from './webhook-signature.ts'

/** The event as the outbox holds it. */
export interface OutboxEvent {
  id: string
  type: string
  workspaceId: string
  createdAt: Date
}

/** One attempt of one delivery: what goes into its signed bytes. */
export interface AttemptInput {
  event: OutboxEvent
  /** The event's data (its object, and what an update changed), redacted for the endpoint's owner. */
  data: EventData
  deliveryId: string
  attempt: number
  /** Unix seconds; inside the signed body, so a captured request goes stale. */
  sentAt: number
  secret: string
  /** The previous secret while a rotation's overlap lasts. */
  previousSecret: string | null
}

/** The exact request of one attempt. */
export interface DeliveryRequest {
  body: string
  headers: Record<string, string>
}

/** The user agent of every delivery. */
const WEBHOOK_USER_AGENT = 'Workgraph-Webhooks/1 (+https://github.com/workgraph/workgraph)'

/**
 * Serializes and signs one attempt (docs/webhooks.md). The body is built anew for every attempt,
 * since `delivery.attempt` and `delivery.sent_at` are inside it, and signed with the secrets valid
 * at send time, so a retry queued before a rotation is signed with the new secret.
 */
export function buildDeliveryRequest(input: AttemptInput): DeliveryRequest {
  const { event } = input
  const body = JSON.stringify({
    id: event.id,
    type: event.type,
    created_at: event.createdAt.toISOString(),
    workspace_id: event.workspaceId,
    delivery: { id: input.deliveryId, attempt: input.attempt, sent_at: input.sentAt },
    data: input.data,
  })
  const secrets = [input.secret, ...(input.previousSecret ? [input.previousSecret] : [])]
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': WEBHOOK_USER_AGENT,
    'x-service-signature': serviceSignature(input.secret, body),
    'x-service-event-id': event.id,
    'x-service-event-type': event.type,
    'x-service-delivery-id': input.deliveryId,
    'x-service-delivery-attempt': String(input.attempt),
    'x-service-timestamp': String(input.sentAt),
    'webhook-id': event.id,
    'webhook-timestamp': String(input.sentAt),
    'webhook-signature': secrets
      .map((secret) => standardSignature(secret, event.id, input.sentAt, body))
      .join(' '),
  }
  if (input.previousSecret)
    headers['x-service-signature-previous'] = serviceSignature(input.previousSecret, body)
  return { body, headers }
}

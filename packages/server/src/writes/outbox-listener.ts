import pg from 'pg'

/** The channel the outbox trigger notifies (migration 0005). */
const OUTBOX_CHANNEL = 'workgraph_outbox'

const RECONNECT_MS = 1000

/**
 * Listens on PostgreSQL for new outbox events, so a dispatcher in any process starts delivering
 * the moment another one commits. Notifications are only a hint: dispatchers still poll, so a
 * lost connection delays deliveries, never loses them. Reconnects on its own until closed.
 */
export function listenForOutboxEvents(
  connectionString: string,
  onEvents: () => void,
  onError: (error: unknown) => void,
): { close(): Promise<void> } {
  let client: pg.Client | null = null
  let closed = false
  let retry: NodeJS.Timeout | null = null
  const connect = () => {
    const current = new pg.Client({ connectionString })
    client = current
    const reconnect = (error?: unknown) => {
      if (error) onError(error)
      current.removeAllListeners()
      current.end().catch(() => undefined)
      if (!closed && client === current) retry = setTimeout(connect, RECONNECT_MS)
    }
    current.on('notification', () => onEvents())
    current.on('error', reconnect)
    current.on('end', () => reconnect())
    current
      .connect()
      .then(() => current.query(`listen ${OUTBOX_CHANNEL}`))
      .catch(reconnect)
  }
  connect()
  return {
    async close() {
      closed = true
      if (retry) clearTimeout(retry)
      const current = client
      client = null
      current?.removeAllListeners()
      await current?.end().catch(() => undefined)
    },
  }
}

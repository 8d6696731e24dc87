import pg from 'pg'

const RECONNECT_MS = 1000

/** What a listener tells its owner. */
export interface ListenerEvents {
  /** A notification on the channel, with its payload. */
  notification(payload: string): void
  /** LISTEN took effect: from now on every commit's notification arrives. */
  listening?(): void
  /** The connection was lost (with the error, if any); notifications may be missed until `listening`. */
  lost(error: unknown): void
}

/**
 * Listens on a PostgreSQL channel on a connection of its own, reconnecting on its own until
 * closed. Notifications are hints that a reader acts on at once; whoever relies on them also
 * has a slower way to find what a lost connection made it miss.
 */
export function listenForNotifications(
  connectionString: string,
  channel: string,
  events: ListenerEvents,
): { close(): Promise<void> } {
  let client: pg.Client | null = null
  let closed = false
  let retry: NodeJS.Timeout | null = null
  const connect = () => {
    const current = new pg.Client({ connectionString })
    client = current
    const reconnect = (error?: unknown) => {
      current.removeAllListeners()
      current.on('error', () => undefined)
      current.end().catch(() => undefined)
      if (closed || client !== current) return
      events.lost(error)
      retry = setTimeout(connect, RECONNECT_MS)
    }
    current.on('notification', (message) => events.notification(message.payload ?? ''))
    current.on('error', reconnect)
    current.on('end', () => reconnect())
    current
      .connect()
      .then(() => current.query(`listen ${pg.escapeIdentifier(channel)}`))
      .then(() => {
        if (!closed && client === current) events.listening?.()
      })
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
      current?.on('error', () => undefined)
      await current?.end().catch(() => undefined)
    },
  }
}

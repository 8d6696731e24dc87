import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { request } from 'undici'

/** What the soak's followers of the change feed heard, and how to stop them. */
export interface Followers {
  /** Changes the long polls were answered with, and the updates the streams heard. */
  readonly heard: { polled: number; streamed: number; pollErrors: number }
  stop(): Promise<void>
}

/**
 * The soak's followers of the change feed beside its requests: `polls` long polls of
 * `GET /v1/changes` (`wait=25`, asking again as soon as answered) and `streams` MCP
 * `subscriptions/listen` streams, against `base`, taking `tokens` in turn (a key holds at most
 * five streams).
 */
export async function startFollowers(
  base: string,
  tokens: string[],
  counts: { polls: number; streams: number },
): Promise<Followers> {
  const heard = { polled: 0, streamed: 0, pollErrors: 0 }
  const stopping = new AbortController()
  const headersOf = (n: number) => ({ authorization: `Bearer ${tokens[n % tokens.length]}` })
  const poll = async (_: unknown, n: number) => {
    const headers = headersOf(n)
    let cursor = ''
    while (!stopping.signal.aborted) {
      try {
        const query = cursor ? `?cursor=${encodeURIComponent(cursor)}&wait=25` : ''
        const answer = await request(`${base}/v1/changes${query}`, {
          headers,
          signal: stopping.signal,
          headersTimeout: 60_000,
        })
        const body = (await answer.body.json()) as { data?: unknown[]; next_cursor?: string }
        if (answer.statusCode !== 200) throw new Error(String(answer.statusCode))
        heard.polled += body.data?.length ?? 0
        cursor = body.next_cursor ?? cursor
      } catch {
        if (stopping.signal.aborted) return
        heard.pollErrors++
        await new Promise((resolve) => setTimeout(resolve, 1000))
      }
    }
  }
  const polling = Array.from({ length: counts.polls }, poll)
  const clients: Client[] = []
  for (let i = 0; i < counts.streams; i++) {
    const headers = headersOf(i)
    const mcp = new Client(
      { name: 'soak', version: '1' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    )
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers } }),
    )
    mcp.setNotificationHandler('notifications/resources/updated', () => {
      heard.streamed++
    })
    await mcp.listen({ resourceSubscriptions: ['workgraph://changes'] })
    clients.push(mcp)
  }
  return {
    heard,
    stop: async () => {
      stopping.abort()
      await Promise.all(polling)
      await Promise.all(clients.map((mcp) => mcp.close().catch(() => undefined)))
    },
  }
}

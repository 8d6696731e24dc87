import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'

/** A `notifications/resources/updated` as a listener hears it. */
export interface Update {
  uri: string
  _meta?: {
    'workgraph/changes'?: {
      event: string
      title: string
      actor: string | null
      resource_id: string
    }[]
    'workgraph/next_cursor'?: string
  }
}

/** A client of protocol 2026-07-28 at `origin` as `token`, and the resource updates it has heard. */
export async function listenerOn(origin: string, token: string) {
  const mcp = new Client(
    { name: 'listen-test', version: '1.0.0' },
    {
      versionNegotiation: { mode: { pin: '2026-07-28' } },
    },
  )
  await mcp.connect(
    new StreamableHTTPClientTransport(new URL(`${origin}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  )
  const heard: Update[] = []
  const waiters: (() => void)[] = []
  mcp.setNotificationHandler('notifications/resources/updated', (note) => {
    heard.push(note.params as unknown as Update)
    for (const wake of waiters.splice(0)) wake()
  })
  /** Resolves once `count` updates have been heard. */
  const until = async (count: number) => {
    while (heard.length < count) await new Promise<void>((wake) => waiters.push(wake))
  }
  return { mcp, heard, until }
}

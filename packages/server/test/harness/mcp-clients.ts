import {
  Client as ClientV2,
  StreamableHTTPClientTransport as TransportV2,
} from '@modelcontextprotocol/client'
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js'

/** A tool as `tools/list` describes it. */
export interface ListedTool {
  name: string
  description?: string
  inputSchema: unknown
  outputSchema?: unknown
  annotations?: Record<string, unknown>
}

/** A tool call's result. */
export interface CalledTool {
  isError?: boolean
  content: { type: string; text?: string }[]
  structuredContent?: Record<string, unknown>
}

/** One connected MCP client, whichever SDK generation it comes from. */
export interface McpTestClient {
  readonly generation: 'v1' | 'v2'
  listTools(): Promise<ListedTool[]>
  callTool(name: string, args?: Record<string, unknown>): Promise<CalledTool>
  close(): Promise<void>
}

/** The official SDK generations a test connects with: v1 (clients of 2025) and v2. */
export const GENERATIONS = ['v1', 'v2'] as const

/** Connects an official MCP client to `url` with a bearer token, as a remote client would. */
export async function connectMcp(
  generation: (typeof GENERATIONS)[number],
  url: string,
  token: string,
): Promise<McpTestClient> {
  const requestInit = { headers: { authorization: `Bearer ${token}` } }
  const info = { name: 'workgraph-test', version: '1.0.0' }
  if (generation === 'v1') {
    const client = new ClientV1(info)
    await client.connect(new TransportV1(new URL(url), { requestInit }))
    return {
      generation,
      listTools: async () => (await client.listTools()).tools as ListedTool[],
      callTool: async (name, args = {}) =>
        (await client.callTool({ name, arguments: args })) as CalledTool,
      close: () => client.close(),
    }
  }
  const client = new ClientV2(info)
  await client.connect(new TransportV2(new URL(url), { requestInit }))
  return {
    generation,
    listTools: async () => (await client.listTools()).tools as ListedTool[],
    callTool: async (name, args = {}) =>
      (await client.callTool({ name, arguments: args })) as CalledTool,
    close: () => client.close(),
  }
}

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
  /** `resources/list`: each resource's URI and name. */
  listResources(): Promise<{ uri: string; name: string }[]>
  /** `resources/read`: the text of each of its contents. */
  readResource(uri: string): Promise<string[]>
  /** `prompts/list`: each prompt's name and arguments. */
  listPrompts(): Promise<{ name: string; arguments?: { name: string; required?: boolean }[] }[]>
  /** `prompts/get`: the text of each of its messages. */
  getPrompt(name: string, args?: Record<string, string>): Promise<string[]>
  close(): Promise<void>
}

// The calls both generations' clients make alike (their types differ, their shapes do not).
interface CommonClient {
  listResources(): Promise<{ resources: { uri: string; name: string }[] }>
  readResource(params: { uri: string }): Promise<{ contents: { text?: unknown }[] }>
  listPrompts(): Promise<{
    prompts: { name: string; arguments?: { name: string; required?: boolean }[] }[]
  }>
  getPrompt(params: {
    name: string
    arguments?: Record<string, string>
  }): Promise<{ messages: { content: { type: string; text?: unknown } }[] }>
}

function commonCalls(client: CommonClient) {
  return {
    listResources: async () => (await client.listResources()).resources,
    readResource: async (uri: string) =>
      (await client.readResource({ uri })).contents.map((c) => String(c.text ?? '')),
    listPrompts: async () => (await client.listPrompts()).prompts,
    getPrompt: async (name: string, args: Record<string, string> = {}) =>
      (await client.getPrompt({ name, arguments: args })).messages.map((m) =>
        String(m.content.text ?? ''),
      ),
  }
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
      ...commonCalls(client as unknown as CommonClient),
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
    ...commonCalls(client as unknown as CommonClient),
    close: () => client.close(),
  }
}

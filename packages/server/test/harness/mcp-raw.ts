import type { FastifyInstance } from 'fastify'

/** One JSON-RPC message as the server answers it. */
export interface RpcAnswer {
  jsonrpc: '2.0'
  id: string | number | null
  result?: Record<string, unknown>
  error?: { code: number; message: string; data?: unknown }
}

/** A `/mcp` answer: its status and headers, and its JSON-RPC messages (or problem) parsed. */
export interface McpReply {
  status: number
  headers: Record<string, string | string[] | number | undefined>
  body: string
  /** The JSON-RPC messages of the body, whether sent as JSON, a JSON array or an event stream. */
  messages: RpcAnswer[]
  // biome-ignore lint/suspicious/noExplicitAny: test assertions read arbitrary JSON
  json: any
}

/**
 * Posts a raw body to `/mcp` in-process, as a client of the given protocol version would (no
 * header when `version` is null), and parses whatever comes back.
 */
export async function postMcp(
  app: FastifyInstance,
  token: string | null,
  payload: unknown,
  options: { version?: string | null; headers?: Record<string, string> } = {},
): Promise<McpReply> {
  const version = options.version === undefined ? '2025-06-18' : options.version
  const response = await app.inject({
    method: 'POST',
    url: '/mcp',
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(version ? { 'mcp-protocol-version': version } : {}),
      ...options.headers,
    },
    payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
  })
  const body = response.body
  let json: unknown
  let messages: RpcAnswer[] = []
  if (String(response.headers['content-type'] ?? '').startsWith('text/event-stream')) {
    messages = body
      .split('\n')
      .filter((line) => line.startsWith('data: ') && line.length > 6)
      .map((line) => JSON.parse(line.slice(6)) as RpcAnswer)
    json = messages.length === 1 ? messages[0] : messages
  } else if (body) {
    try {
      json = JSON.parse(body)
    } catch {
      json = undefined
    }
    if (Array.isArray(json)) messages = json as RpcAnswer[]
    else if (json && typeof json === 'object' && 'jsonrpc' in json) messages = [json as RpcAnswer]
  }
  return { status: response.statusCode, headers: response.headers, body, messages, json }
}

/** A `tools/call` request. */
export function toolCall(id: number, name: string, args: Record<string, unknown> = {}) {
  return { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } }
}

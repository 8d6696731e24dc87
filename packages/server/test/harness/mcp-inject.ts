import type { FastifyInstance } from 'fastify'
import type { CalledTool } from './mcp-clients.ts'

let nextId = 1

/**
 * Calls an MCP tool in-process (Fastify's inject, no socket): one stateless JSON-RPC request, as
 * the Streamable HTTP transport carries it. For tests that call tools by the thousand; the
 * official clients are tested over real HTTP in mcp.routes.test.ts.
 */
export async function callToolInProcess(
  app: FastifyInstance,
  token: string,
  name: string,
  args: Record<string, unknown> = {},
): Promise<CalledTool> {
  return (await rpc(app, token, 'tools/call', { name, arguments: args })) as CalledTool
}

/** The names of the tools a token is offered, in-process. */
export async function toolNamesInProcess(app: FastifyInstance, token: string): Promise<string[]> {
  const result = (await rpc(app, token, 'tools/list', {})) as { tools: { name: string }[] }
  return result.tools.map((tool) => tool.name)
}

// One stateless JSON-RPC request; its result, or a thrown error.
async function rpc(
  app: FastifyInstance,
  token: string,
  method: string,
  params: Record<string, unknown>,
): Promise<unknown> {
  const id = nextId++
  const response = await app.inject({
    method: 'POST',
    url: '/mcp',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-06-18',
    },
    payload: { jsonrpc: '2.0', id, method, params },
  })
  const body = response.headers['content-type']?.toString().startsWith('text/event-stream')
    ? (response.body.split('\n').find((line) => line.startsWith('data: ')) ?? '').slice(6)
    : response.body
  const message = JSON.parse(body) as { result?: unknown }
  if (!message.result) throw new Error(`${method}: ${response.statusCode} ${body}`)
  return message.result
}

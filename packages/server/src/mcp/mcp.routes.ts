import { Readable } from 'node:stream'
import { toWebRequest } from '@modelcontextprotocol/node'
import { createMcpHandler, validateOriginHeader } from '@modelcontextprotocol/server'
import type { FastifyPluginAsync, FastifyReply } from 'fastify'
import { SCOPES, type Scope } from '../access/scopes.ts'
import type { AppDeps } from '../app-deps.ts'
import { authenticated } from '../http/authentication.ts'
import { ProblemError } from '../http/problem-catalogue.ts'
import { buildMcpServer } from './mcp-server.ts'
import type { McpSession } from './mcp-session.ts'
import { TOOLS } from './tools/index.ts'

/** The path of the MCP endpoint (docs/mcp.md). */
const MCP_PATH = '/mcp'

const SERVER_VERSION = '1.0.0'

// What a client without a token is told to ask for: the scopes of the tools, nothing more.
const TOOL_SCOPES = [...new Set(TOOLS.flatMap((tool) => tool.anyOfScopes))]

/**
 * `/mcp`: the Model Context Protocol over Streamable HTTP, stateless, so any instance answers any
 * request. It takes the same bearer tokens as `/v1`, through the same authentication and rate
 * limits; without one it answers 401 with a challenge that leads an MCP client to the OAuth
 * server. Each request builds a server holding only the tools its token's scopes allow.
 */
export function mcpRoutes(deps: AppDeps): FastifyPluginAsync {
  return async (app) => {
    const handler = createMcpHandler(
      ({ authInfo }) => buildMcpServer(authInfo?.extra?.session as McpSession, SERVER_VERSION),
      { maxRequestBodySize: deps.config.bodyLimitBytes },
    )
    app.addHook('onClose', () => handler.close())
    // Browsers send an Origin; a page elsewhere must not drive a signed-in client's requests.
    const origins = [...new Set([deps.config.publicUrl, deps.config.appUrl])].map(
      (url) => new URL(url).hostname,
    )
    app.route({
      // Stateless: no session to stream from (GET) or end (DELETE); those are our 405.
      method: 'POST',
      url: MCP_PATH,
      schema: { hide: true },
      config: { scopes: { anyOf: Object.keys(SCOPES) as Scope[] }, challengeScopes: TOOL_SCOPES },
      // The SDK's own check (the one its Fastify adapter wraps), answered as a problem like
      // every other refusal of this service.
      onRequest: async (request) => {
        const checked = validateOriginHeader(request.headers.origin, origins)
        if (!checked.ok) throw new ProblemError('forbidden', checked.message)
      },
      handler: async (request, reply) => {
        const caller = authenticated(request)
        const userAgent = request.headers['user-agent']
        const session: McpSession = {
          deps,
          caller,
          origin: {
            requestId: request.id,
            ip: request.ip,
            userAgent: typeof userAgent === 'string' ? userAgent : null,
          },
        }
        const web = await toWebRequest(request.raw, request.body)
        const response = await handler.fetch(web, {
          authInfo: {
            token: '',
            clientId: caller.credential.clientId ?? caller.credential.id,
            scopes: [...caller.credential.scopes],
            extra: { session },
          },
          parsedBody: request.body,
        })
        return send(reply, response)
      },
    })
  }
}

// Sends a web Response through Fastify, so the reply keeps its hooks' headers (request id, limits).
async function send(reply: FastifyReply, response: Response): Promise<FastifyReply> {
  reply.code(response.status)
  response.headers.forEach((value, name) => {
    if (name !== 'content-length') reply.header(name, value)
  })
  if (!response.body) return reply.send()
  if (response.headers.get('content-type')?.startsWith('text/event-stream')) {
    return reply.send(Readable.fromWeb(response.body as import('node:stream/web').ReadableStream))
  }
  return reply.send(await response.text())
}

import { Readable } from 'node:stream'
import { toWebRequest } from '@modelcontextprotocol/node'
import { createMcpHandler } from '@modelcontextprotocol/server'
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify'
import { authenticated } from '../api/authenticated.ts'
import { ProblemError } from '../api/problem-catalogue.ts'
import type { AppDeps } from '../app-deps.ts'
import { SCOPES, type Scope } from '../catalogue/scopes.ts'
import type { ChangeFeed } from '../graph/changes/change-feed.ts'
import { CallBudget } from './call-budget.ts'
import { ListenSlots } from './listen-slots.ts'
import { batchRefusal } from './mcp-batch.ts'
import { CallerChangeBus } from './mcp-listen.ts'
import {
  costOf,
  type ErrorAnswer,
  invalidParams,
  type Message,
  methodOf,
  RPC,
  requestId,
  rpcError,
} from './mcp-messages.ts'
import { allowedOrigins, refusesOrigin } from './mcp-origin.ts'
import { buildMcpServer } from './mcp-server.ts'
import type { McpSession } from './mcp-session.ts'
import { TOOLS } from './tools/index.ts'

/** The path of the MCP endpoint (docs/mcp.md). */
const MCP_PATH = '/mcp'

const SERVER_VERSION = '1.0.0'

type McpHandler = ReturnType<typeof createMcpHandler>

// Open `subscriptions/listen` streams a key may hold: the other limits are settings.
const LISTENS_PER_KEY = 5

/** What every `/mcp` request of one app shares: the handler, and the open change streams. */
interface McpEndpoint {
  handler: McpHandler
  maxRequestBodySize: number
  /** Open change streams, each with its own handler. */
  listens: Set<McpHandler>
  /** Who holds them, against the limits. */
  slots: ListenSlots
  /** Their count among the metrics' open waits. */
  counted: { inc(): void; dec(): void }
}

/**
 * `/mcp`: the Model Context Protocol over Streamable HTTP, stateless, so any instance answers any
 * request. It takes the same bearer tokens as `/v1`, through the same authentication; each
 * JSON-RPC message is charged to the token's budgets as what it does. Without a token it answers
 * 401 with a challenge that leads an MCP client to the OAuth server. Each message is served by a
 * server holding only the tools its token's scopes allow.
 */
export function mcpRoutes(deps: AppDeps, feed: ChangeFeed): FastifyPluginAsync {
  return async (app) => {
    // What a client without a token is told to ask for: the scopes of the tools, nothing more.
    const toolScopes = [...new Set(TOOLS.flatMap((tool) => tool.anyOfScopes))]
    const endpoint: McpEndpoint = {
      handler: createMcpHandler(serverOf, { maxRequestBodySize: deps.config.bodyLimitBytes }),
      maxRequestBodySize: deps.config.bodyLimitBytes,
      listens: new Set(),
      slots: new ListenSlots({
        perCredential: LISTENS_PER_KEY,
        perActor: deps.config.mcpStreamsPerPerson,
        perWorkspace: deps.config.mcpStreamsPerWorkspace,
        perProcess: deps.config.mcpStreamsPerProcess,
      }),
      counted: deps.metrics.openWaits.labels({ kind: 'mcp_listen' }),
    }
    // Closing ends every change stream with the protocol's graceful end, then the handler.
    app.addHook('onClose', async () => {
      await Promise.all([...endpoint.listens].map((listen) => listen.close()))
      await endpoint.handler.close()
    })
    const origins = allowedOrigins(deps.config)
    app.route({
      // Stateless: no session to stream from (GET) or end (DELETE); those are our 405.
      method: 'POST',
      url: MCP_PATH,
      schema: { hide: true },
      config: {
        scopes: { anyOf: Object.keys(SCOPES) as Scope[] },
        challengeScopes: toolScopes,
        ratedPerCall: true,
      },
      // Browsers send an Origin; a page elsewhere must not drive a signed-in client's requests.
      onRequest: async (request) => {
        const refusal = refusesOrigin(request.headers.origin, origins)
        if (refusal) throw new ProblemError('forbidden', refusal)
      },
      handler: async (request, reply) => {
        const exchange = new Exchange(deps, feed, endpoint, request, reply)
        const body = request.body as Message
        if (Array.isArray(body)) return exchange.batch(reply, body)
        return exchange.single(reply, body)
      },
    })
  }
}

/** One `/mcp` request: its caller, its budgets, and how each of its messages is served. */
class Exchange {
  readonly #endpoint: McpEndpoint
  readonly #request: FastifyRequest
  readonly #session: McpSession
  readonly #budget: CallBudget

  constructor(
    deps: AppDeps,
    feed: ChangeFeed,
    endpoint: McpEndpoint,
    request: FastifyRequest,
    reply: FastifyReply,
  ) {
    const caller = authenticated(request)
    const userAgent = request.headers['user-agent']
    const gone = new AbortController()
    reply.raw.once('close', () => gone.abort())
    this.#endpoint = endpoint
    this.#request = request
    this.#session = {
      deps,
      caller,
      log: request.log,
      feed,
      asker: {
        signal: gone.signal,
        reauthenticate: () => request.authenticateAgain(),
        congested: () => reply.raw.writableNeedDrain,
      },
      origin: {
        requestId: request.id,
        ip: request.ip,
        userAgent: typeof userAgent === 'string' ? userAgent : null,
      },
    }
    this.#budget = new CallBudget(
      { store: deps.rateLimits, config: deps.config, clock: deps.clock },
      caller,
    )
  }

  /** One message: over its budget it is a 429, like any request; else the SDK's answer, streamed. */
  async single(reply: FastifyReply, message: Message): Promise<FastifyReply> {
    const exceeded = await this.#budget.spend(costOf(message))
    this.#budget.report(reply)
    if (exceeded) throw exceeded
    const invalid = invalidParams(message)
    if (invalid) return sendJson(reply, 200, invalid)
    if (methodOf(message) === 'subscriptions/listen')
      return send(reply, await this.#listen(message))
    return send(reply, await this.#serve(message))
  }

  /**
   * `subscriptions/listen` (docs/mcp.md, "Following changes"): served by a handler of its own
   * whose bus is this caller's change feed, so the stream hears only what the caller may open.
   * A key, a person, a workspace and the process each hold at most so many such streams
   * (mcp/listen-slots.ts); past any of them, the SDK's own refusal.
   */
  async #listen(message: Message): Promise<Response> {
    const { listens, slots, counted, maxRequestBodySize } = this.#endpoint
    const { credential, principal } = this.#session.caller
    const release = slots.take({
      credential: credential.id,
      actor: principal.actorId,
      workspace: principal.workspaceId,
    })
    const full = release === null
    let listen: McpHandler | null = null
    const bus = new CallerChangeBus(this.#session, () => void listen?.close())
    listen = createMcpHandler(serverOf, {
      bus,
      maxRequestBodySize,
      // Zero open streams allowed is the SDK's "Subscription limit reached", before the ack.
      maxSubscriptions: full ? 0 : 1,
    })
    if (release) {
      const opened = listen
      listens.add(opened)
      counted.inc()
      // The response's end, whoever ends it (the client going away, or the stream's close).
      const ended = () => {
        bus.stop()
        listens.delete(opened)
        counted.dec()
        release()
        void opened.close()
      }
      if (this.#session.asker.signal.aborted) ended()
      else this.#session.asker.signal.addEventListener('abort', ended, { once: true })
    }
    return this.#fetch(listen, message)
  }

  /**
   * A batch (docs/mcp.md, "Batches"): refused whole where its protocol version has none; else
   * each message is charged and served in turn, one over its budget answered with an error in its
   * place, and the answers sent together as one JSON array. A batch none of whose messages fits
   * the budget is a 429.
   */
  async batch(reply: FastifyReply, batch: Message[]): Promise<FastifyReply> {
    const version = this.#request.headers['mcp-protocol-version']
    const refusal = batchRefusal(batch, typeof version === 'string' ? version : undefined)
    if (refusal) {
      await this.#budget.spend('read')
      this.#budget.report(reply)
      return sendJson(reply, 400, rpcError(null, RPC.invalidRequest, refusal))
    }
    const answers: unknown[] = []
    let refused: ProblemError | null = null
    let served = 0
    for (const message of batch) {
      const exceeded = await this.#budget.spend(costOf(message))
      if (exceeded) {
        refused = exceeded
        const id = requestId(message)
        if (id !== undefined) answers.push(rateLimited(id, exceeded))
        continue
      }
      served++
      const invalid = invalidParams(message)
      answers.push(...(invalid ? [invalid] : await answersOf(await this.#serve(message))))
    }
    this.#budget.report(reply)
    if (served === 0 && refused) throw refused
    if (answers.length === 0) return reply.code(202).send()
    return sendJson(reply, 200, answers)
  }

  // The SDK's answer to one message, served by a server with the tools of the caller's token.
  #serve(message: Message): Promise<Response> {
    return this.#fetch(this.#endpoint.handler, message)
  }

  async #fetch(handler: McpHandler, message: Message): Promise<Response> {
    const { caller } = this.#session
    const web = await toWebRequest(this.#request.raw, message)
    return handler.fetch(web, {
      authInfo: {
        token: '',
        clientId: caller.credential.clientId ?? caller.credential.id,
        scopes: [...caller.credential.scopes],
        extra: { session: this.#session },
      },
      parsedBody: message,
    })
  }
}

// A server for one request, of the era its protocol version is, with its session's tools.
function serverOf(context: {
  authInfo?: { extra?: Record<string, unknown> }
  era: 'legacy' | 'modern'
}) {
  return buildMcpServer(context.authInfo?.extra?.session as McpSession, SERVER_VERSION, context.era)
}

// A call refused for the budget, as an error in its place: what a 429 would have said.
function rateLimited(id: string | number, problem: ProblemError): ErrorAnswer {
  const retryAfter = Number(problem.extras.headers?.['retry-after'] ?? 60)
  return rpcError(id, RPC.serverError, `Rate limited: ${problem.message}`, {
    status: 429,
    code: problem.code,
    retry_after: retryAfter,
  })
}

// The JSON-RPC answers in one of the SDK's responses to a single message (JSON or events);
// notifications it streamed before the answer are left out, as in a JSON answer.
async function answersOf(response: Response): Promise<unknown[]> {
  const text = await response.text()
  if (!text) return []
  const payloads = response.headers.get('content-type')?.startsWith('text/event-stream')
    ? text
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).trim())
        .filter(Boolean)
    : [text]
  return payloads.flatMap((payload) => {
    try {
      const message = JSON.parse(payload) as Record<string, unknown>
      return 'id' in message && ('result' in message || 'error' in message) ? [message] : []
    } catch {
      return []
    }
  })
}

function sendJson(reply: FastifyReply, status: number, body: unknown): FastifyReply {
  return reply
    .code(status)
    .type('application/json')
    .serializer((payload: unknown) => JSON.stringify(payload))
    .send(body)
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

import { isSpecType, type SpecTypeName } from '@modelcontextprotocol/server'
import type { RateLimitKind } from '../api/rate-limit-store.ts'
import { TOOLS } from './tools/index.ts'

/** One JSON-RPC message of a `/mcp` body, as the client sent it (not yet known to be valid). */
export type Message = unknown

/** A JSON-RPC error answer to the request `id`. */
export interface ErrorAnswer {
  jsonrpc: '2.0'
  id: string | number | null
  error: { code: number; message: string; data?: unknown }
}

/** JSON-RPC's error codes that the route answers itself. */
export const RPC = { invalidRequest: -32600, invalidParams: -32602, serverError: -32000 } as const

// A tool that does not say it only reads may write: the protocol's default, and the safe one.
const WRITE_TOOLS = new Set(
  TOOLS.filter((tool) => tool.annotations.readOnlyHint !== true).map((tool) => tool.name),
)

// Every method this server answers, by the protocol type of its request: params that do not fit
// it are answered here, as JSON-RPC says, rather than by the SDK's internal error.
const REQUEST_TYPES: Record<string, SpecTypeName> = {
  initialize: 'InitializeRequest',
  ping: 'PingRequest',
  'tools/list': 'ListToolsRequest',
  'tools/call': 'CallToolRequest',
  'prompts/list': 'ListPromptsRequest',
  'prompts/get': 'GetPromptRequest',
  'resources/list': 'ListResourcesRequest',
  'resources/templates/list': 'ListResourceTemplatesRequest',
  'resources/read': 'ReadResourceRequest',
  'subscriptions/listen': 'SubscriptionsListenRequest',
  'completion/complete': 'CompleteRequest',
  'logging/setLevel': 'SetLevelRequest',
}

const fieldsOf = (message: Message): Record<string, unknown> =>
  message !== null && typeof message === 'object' && !Array.isArray(message)
    ? (message as Record<string, unknown>)
    : {}

/** The id of a request (a message with a method and an id); undefined for anything else. */
export function requestId(message: Message): string | number | undefined {
  const { method, id } = fieldsOf(message)
  if (typeof method !== 'string') return undefined
  return typeof id === 'string' || typeof id === 'number' ? id : undefined
}

/** The method a message names, if it names one. */
export function methodOf(message: Message): string | undefined {
  const { method } = fieldsOf(message)
  return typeof method === 'string' ? method : undefined
}

/**
 * What a message costs, as the service counts it (docs/api.md, "Rate limits"): a `tools/call` of
 * a tool that writes is a write unless it asks for exactly `dry_run: true` (a dry run is a read);
 * every other message, valid or not, is a read.
 */
export function costOf(message: Message): RateLimitKind {
  if (methodOf(message) !== 'tools/call') return 'read'
  const params = fieldsOf(fieldsOf(message).params)
  if (typeof params.name !== 'string' || !WRITE_TOOLS.has(params.name)) return 'read'
  return fieldsOf(params.arguments).dry_run === true ? 'read' : 'write'
}

/**
 * The answer to a request whose params do not fit its method (JSON-RPC's -32602), or null. The
 * SDK would answer such a request with an internal error (-32603) quoting its validator.
 */
export function invalidParams(message: Message): ErrorAnswer | null {
  const id = requestId(message)
  const method = methodOf(message)
  const type = method === undefined ? undefined : REQUEST_TYPES[method]
  if (id === undefined || type === undefined || isSpecType[type](message)) return null
  return rpcError(
    id,
    RPC.invalidParams,
    `Invalid params: the params of ${method} do not match its schema.`,
  )
}

/** A JSON-RPC error answer. */
export function rpcError(
  id: string | number | null,
  code: number,
  message: string,
  data?: unknown,
): ErrorAnswer {
  return { jsonrpc: '2.0', id, error: { code, message, ...(data === undefined ? {} : { data }) } }
}

import { classifyInboundRequest } from '@modelcontextprotocol/server'
import { type Message, methodOf } from './mcp-messages.ts'

/** The one protocol version whose clients may send a batch: 2025-06-18 removed them. */
export const BATCH_VERSION = '2025-03-26'

/** The most messages one batch may hold (the SDK's own bound). */
export const MAX_BATCH = 100

/**
 * Why a batch is refused as an invalid request (JSON-RPC's -32600, with HTTP 400), or null when
 * its messages are to be answered one by one. The protocol version is the `MCP-Protocol-Version`
 * header's or, for a batch that holds an `initialize`, the one it asks for; a client that names
 * none speaks 2025-03-26, as the specification says.
 */
export function batchRefusal(
  batch: readonly Message[],
  headerVersion: string | undefined,
): string | null {
  if (batch.length === 0) return 'Invalid Request: an empty batch.'
  if (batch.length > MAX_BATCH)
    return `Invalid Request: a batch may hold at most ${MAX_BATCH} messages.`
  const init = batch.find((message) => methodOf(message) === 'initialize')
  const asked = (init as { params?: { protocolVersion?: unknown } } | undefined)?.params
    ?.protocolVersion
  const version = typeof asked === 'string' ? asked : (headerVersion ?? BATCH_VERSION)
  if (version !== BATCH_VERSION) {
    return `Invalid Request: JSON-RPC batches are not part of MCP ${version}; send one message per request.`
  }
  if (init) return 'Invalid Request: initialize must be sent alone, not in a batch.'
  // The SDK's own reading of a batch: an element that is no JSON-RPC message, or one of the
  // 2026 revision (which has no batches), refuses it whole.
  const classified = classifyInboundRequest({
    httpMethod: 'POST',
    body: batch,
    ...(headerVersion === undefined ? {} : { protocolVersionHeader: headerVersion }),
  })
  return classified.kind === 'reject' ? classified.message : null
}

import type { Readable, Writable } from 'node:stream'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import {
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
} from '@modelcontextprotocol/server'
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio'

/** Where the bridge connects and how it reports. */
export interface StdioBridgeOptions {
  /** The server's `/mcp` URL. */
  url: URL
  /** The bearer token (an API key or workspace token). */
  token: string
  stdin: Readable
  stdout: Writable
  /** Diagnostics: never standard output, which carries the protocol. */
  log(line: string): void
}

/**
 * Serves MCP over stdio by relaying every message to a running server's `/mcp` and its answers
 * back: the tools, their scopes and their audit are exactly the server's, whichever transport a
 * client uses. A message the server refuses (a bad token, an unreachable server) is answered with
 * a JSON-RPC error, so the local client reports it instead of waiting. Resolves when stdin closes.
 */
export function runStdioBridge(options: StdioBridgeOptions): Promise<void> {
  const local = new StdioServerTransport(options.stdin, options.stdout)
  const remote = new StreamableHTTPClientTransport(options.url, {
    requestInit: { headers: { authorization: `Bearer ${options.token}` } },
  })
  return new Promise((resolve) => {
    local.onmessage = (message: JSONRPCMessage) => {
      remote.send(message).catch((error: Error) => {
        options.log(`workgraph mcp: ${error.message}`)
        if (isJSONRPCRequest(message)) {
          void local.send({
            jsonrpc: '2.0',
            id: message.id,
            error: { code: -32000, message: `Workgraph server: ${error.message}` },
          })
        }
      })
    }
    remote.onmessage = (message: JSONRPCMessage) => {
      // Later requests carry the negotiated version in their header, as a direct client's would.
      const version = isJSONRPCResultResponse(message)
        ? (message.result as { protocolVersion?: unknown }).protocolVersion
        : undefined
      if (typeof version === 'string') remote.setProtocolVersion(version)
      void local.send(message)
    }
    remote.onerror = (error) => options.log(`workgraph mcp: ${error.message}`)
    local.onclose = () => {
      void remote.close().finally(resolve)
    }
    void remote.start().then(() => local.start())
  })
}

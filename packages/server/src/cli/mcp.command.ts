import { isLoopbackHost } from '../lib/loopback.ts'
import { runStdioBridge } from '../mcp/stdio-bridge.ts'
import { type CliIO, UsageError } from './cli-io.ts'

/**
 * `workgraph mcp`: the MCP tools over stdio for local clients (Claude Desktop, Cursor…), relayed
 * to a running server named by WORKGRAPH_URL with the token in WORKGRAPH_API_KEY (docs/mcp.md).
 */
export async function mcpCommand(args: string[], io: CliIO): Promise<number> {
  if (args.length > 0) throw new UsageError(`workgraph mcp takes no arguments (got ${args[0]}).`)
  const base = io.env.WORKGRAPH_URL
  const token = io.env.WORKGRAPH_API_KEY
  if (!base || !token) {
    throw new UsageError(
      'Set WORKGRAPH_URL (the server, e.g. http://127.0.0.1:8080) and WORKGRAPH_API_KEY.',
    )
  }
  let url: URL
  try {
    url = new URL('/mcp', base)
  } catch {
    throw new UsageError(`WORKGRAPH_URL is not a URL: ${base}`)
  }
  // The key would cross the network readable by anyone on the way.
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackHost(url.hostname))) {
    throw new UsageError(
      `WORKGRAPH_URL must use https (plain http only to a loopback address: localhost, 127.0.0.1, [::1]); got ${url.origin}.`,
    )
  }
  await runStdioBridge({
    url,
    token,
    stdin: process.stdin,
    stdout: process.stdout,
    log: (line) => io.stderr.write(`${line}\n`),
  })
  return 0
}

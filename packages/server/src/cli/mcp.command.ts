import { runStdioBridge } from '../mcp/stdio-bridge.ts'
import { type CliIO, UsageError } from './cli-io.ts'
import { serverTarget } from './server-target.ts'

/**
 * `workgraph mcp`: the MCP tools over stdio for local clients (Claude Desktop, Cursor…), relayed
 * to a running server named by WORKGRAPH_URL with the token in WORKGRAPH_API_KEY (docs/mcp.md).
 */
export async function mcpCommand(args: string[], io: CliIO): Promise<number> {
  if (args.length > 0) throw new UsageError(`workgraph mcp takes no arguments (got ${args[0]}).`)
  const { base, token } = serverTarget(io.env)
  const url = new URL('/mcp', base)
  await runStdioBridge({
    url,
    token,
    stdin: process.stdin,
    stdout: process.stdout,
    log: (line) => io.stderr.write(`${line}\n`),
  })
  return 0
}

import { isLoopbackHost } from '../lib/loopback.ts'
import { UsageError } from './cli-io.ts'

/** A running server a command talks to, and the token it talks with. */
export interface ServerTarget {
  /** The server's origin, e.g. `http://127.0.0.1:8080`. */
  base: URL
  token: string
}

/**
 * The server named by WORKGRAPH_URL with the token in WORKGRAPH_API_KEY, as `mcp` and `listen`
 * read them. Plain http only to a loopback address: elsewhere the key would cross the network
 * readable by anyone on the way.
 */
export function serverTarget(env: NodeJS.ProcessEnv): ServerTarget {
  const base = env.WORKGRAPH_URL
  const token = env.WORKGRAPH_API_KEY
  if (!base || !token) {
    throw new UsageError(
      'Set WORKGRAPH_URL (the server, e.g. http://127.0.0.1:8080) and WORKGRAPH_API_KEY.',
    )
  }
  let url: URL
  try {
    url = new URL(base)
  } catch {
    throw new UsageError(`WORKGRAPH_URL is not a URL: ${base}`)
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackHost(url.hostname))) {
    throw new UsageError(
      `WORKGRAPH_URL must use https (plain http only to a loopback address: localhost, 127.0.0.1, [::1]); got ${url.origin}.`,
    )
  }
  return { base: url, token }
}

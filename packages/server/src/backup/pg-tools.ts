import { spawn } from 'node:child_process'

/** PostgreSQL's client programs the backups run. */
export type PgTool = 'pg_dump' | 'pg_restore'

/** How a client program ended: its exit status and what it said on standard error. */
export interface PgToolResult {
  status: number
  stderr: string
}

/**
 * A connection string for a client program and the environment that goes with it: the URL
 * without its password, which goes in PGPASSWORD instead, so that it is not in the process list
 * for every user of the machine to read.
 */
export function pgConnection(url: string): { dbname: string; env: Record<string, string> } {
  const parsed = new URL(url)
  const password = decodeURIComponent(parsed.password)
  parsed.password = ''
  return { dbname: parsed.toString(), env: password ? { PGPASSWORD: password } : {} }
}

/** A command line an operator can run instead, the password left out. */
export function pgCommandLine(tool: PgTool, args: string[], url?: string): string {
  const quoted = (arg: string) => (/^[\w./:=@%+-]+$/.test(arg) ? arg : `'${arg}'`)
  const dbname = url === undefined ? [] : [`--dbname=${pgConnection(url).dbname}`]
  return [tool, ...dbname, ...args].map(quoted).join(' ')
}

/**
 * Runs a client program found on the PATH of `env` with `--dbname` for `url` (when given), or
 * answers 'missing' when it is not there.
 */
export function runPgTool(
  tool: PgTool,
  args: string[],
  env: NodeJS.ProcessEnv,
  url?: string,
): Promise<PgToolResult | 'missing'> {
  const connection = url === undefined ? undefined : pgConnection(url)
  return new Promise((resolve, reject) => {
    const child = spawn(tool, connection ? [`--dbname=${connection.dbname}`, ...args] : args, {
      env: { ...env, ...connection?.env },
      stdio: ['ignore', 'ignore', 'pipe'],
    })
    let stderr = ''
    child.stderr.on('data', (chunk) => (stderr += chunk))
    child.on('error', (error: NodeJS.ErrnoException) =>
      error.code === 'ENOENT' ? resolve('missing') : reject(error),
    )
    child.on('close', (code, signal) =>
      resolve({ status: code ?? (signal ? 128 : 1), stderr: stderr.trim() }),
    )
  })
}

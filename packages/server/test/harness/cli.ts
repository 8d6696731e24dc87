import { type ChildProcess, type SpawnOptions, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { delimiter, join } from 'node:path'
import { Readable } from 'node:stream'
import { fileURLToPath } from 'node:url'
import type { CliIO } from '../../src/cli/cli-io.ts'
import { runCli } from '../../src/cli/run-cli.ts'
import { ENGINE, openTestDatabase } from './test-database.ts'

/** The CLI entry file, for tests that start real processes. */
export const MAIN = fileURLToPath(new URL('../../src/main.ts', import.meta.url))

/**
 * Runs a CLI command in this process and captures what it prints; `stdin` is text piped to it,
 * or an input of its own (a terminal).
 */
export async function runCaptured(
  argv: string[],
  env: NodeJS.ProcessEnv = {},
  stdin: string | NonNullable<CliIO['stdin']> = '',
): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = ''
  let stderr = ''
  const io: CliIO = {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    env: { LOG_LEVEL: 'silent', ...env },
    stdin: typeof stdin === 'string' ? Readable.from([stdin]) : stdin,
  }
  const code = await runCli(argv, io)
  return { code, stdout, stderr }
}

/** Where a test file's CLI commands keep their data, and a folder of its own for files. */
export interface CliData {
  /** A temporary folder, removed by `close`. */
  dir: string
  /** The arguments that name the database: a data folder on PGlite, a database on PostgreSQL. */
  target: string[]
  close(): Promise<void>
}

/** A database for the CLI commands of one test file, on the engine the suite runs. */
export async function cliData(prefix: string): Promise<CliData> {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  const database = ENGINE === 'postgres' ? await openTestDatabase() : undefined
  return {
    dir,
    target: database ? ['--database-url', database.url as string] : ['--data', join(dir, 'data')],
    async close() {
      await database?.close()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

/**
 * The PATH of a person's terminal: this process's without any node_modules/.bin, so `node` is the
 * machine's own (Node 20 on a fresh one) and `npm run …` brings the project's.
 */
export function terminalPath(): string {
  return (process.env.PATH ?? '')
    .split(delimiter)
    .filter((entry) => !entry.includes('node_modules'))
    .join(delimiter)
}

/** A TCP port that was free a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0))
    })
  })
}

/** A CLI process, its output so far, and a way to wait for a line or for its exit. */
export interface CliProcess {
  child: ChildProcess
  output(): string
  /** Waits for a line of output; on timeout the process is killed and the wait fails. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>
  /**
   * Waits for the exit code, or the name of the signal that ended the process (so a crash reads
   * as SIGSEGV or SIGABRT in an assertion, not null); a process still running after `timeoutMs`
   * is killed and fails the wait.
   */
  exit(timeoutMs?: number): Promise<number | NodeJS.Signals>
}

// Settings a child must get from the test that starts it, never from the shell running the suite:
// an inherited DATABASE_URL would send a child meant for the embedded database to PostgreSQL.
// The suite's compile cache (scripts/run-tests.ts) stays with the test processes: the servers and
// workers a test starts run under other V8 flags, so they would only rewrite its entries, and a
// test that judges a process by how it exits should not also be judging V8's code-cache reader.
const NOT_INHERITED = ['DATABASE_URL', 'WORKGRAPH_DATA', 'WORKGRAPH_SECRET', 'NODE_COMPILE_CACHE']

/** Starts `workgraph …` as a real process. */
export function startCli(args: string[], env: NodeJS.ProcessEnv = {}): CliProcess {
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !NOT_INHERITED.includes(name)),
  )
  return startProcess(process.execPath, [MAIN, ...args], {
    env: { ...inherited, LOG_LEVEL: 'warn', ...env },
  })
}

/** Starts any program as a real process, its output collected as `startCli`'s is. */
export function startProcess(
  file: string,
  args: string[],
  options: Omit<SpawnOptions, 'stdio'>,
): CliProcess {
  const child = spawn(file, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  child.stdout?.on('data', (chunk) => (output += chunk))
  child.stderr?.on('data', (chunk) => (output += chunk))
  const exited = new Promise<number | NodeJS.Signals>((resolve) =>
    // Node gives one of the two: a code when the process exited, a signal when one ended it.
    child.on('exit', (code, signal) => resolve((code ?? signal) as number | NodeJS.Signals)),
  )
  const giveUp = (what: string): never => {
    child.kill('SIGKILL')
    throw new Error(`timed out waiting for ${what}:\n${output}`)
  }
  return {
    child,
    output: () => output,
    async exit(timeoutMs = 30_000) {
      let timer: NodeJS.Timeout | undefined
      const timeout = new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), timeoutMs)
      })
      const code = await Promise.race([exited, timeout]).finally(() => clearTimeout(timer))
      return code === 'timeout' ? giveUp('the process to exit') : code
    },
    // A server on the embedded database starts in seconds alone, but in a whole run it shares
    // the machine with three test files and a browser: the wait is for a hang, not for speed.
    async waitFor(pattern, timeoutMs = 180_000) {
      const started = Date.now()
      while (Date.now() - started < timeoutMs) {
        const match = output.match(pattern)
        if (match) return match
        if (child.exitCode !== null)
          throw new Error(`process exited (${child.exitCode}) before ${pattern}:\n${output}`)
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
      return giveUp(String(pattern))
    },
  }
}

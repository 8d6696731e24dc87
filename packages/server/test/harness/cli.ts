import { type ChildProcess, spawn } from 'node:child_process'
import { createServer } from 'node:net'
import { Readable } from 'node:stream'
import { fileURLToPath } from 'node:url'
import type { CliIO } from '../../src/cli/cli-io.ts'
import { runCli } from '../../src/cli/run-cli.ts'

/** The CLI entry file, for tests that start real processes. */
export const MAIN = fileURLToPath(new URL('../../src/main.ts', import.meta.url))

/** Runs a CLI command in this process and captures what it prints. */
export async function runCaptured(
  argv: string[],
  env: NodeJS.ProcessEnv = {},
  stdin = '',
): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = ''
  let stderr = ''
  const io: CliIO = {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    env: { LOG_LEVEL: 'silent', ...env },
    stdin: Readable.from([stdin]),
  }
  const code = await runCli(argv, io)
  return { code, stdout, stderr }
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
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>
  exit(): Promise<number | null>
}

/** Starts `workgraph …` as a real process. */
export function startCli(args: string[], env: NodeJS.ProcessEnv = {}): CliProcess {
  const child = spawn(process.execPath, [MAIN, ...args], {
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout?.on('data', (chunk) => (output += chunk))
  child.stderr?.on('data', (chunk) => (output += chunk))
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  return {
    child,
    output: () => output,
    exit: () => exited,
    async waitFor(pattern, timeoutMs = 60_000) {
      const started = Date.now()
      while (Date.now() - started < timeoutMs) {
        const match = output.match(pattern)
        if (match) return match
        if (child.exitCode !== null)
          throw new Error(`process exited (${child.exitCode}) before ${pattern}:\n${output}`)
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
      throw new Error(`timed out waiting for ${pattern}:\n${output}`)
    },
  }
}

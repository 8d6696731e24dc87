/** Where a command writes and what it reads from its environment; tests pass their own. */
export interface CliIO {
  readonly stdout: { write(text: string): unknown; isTTY?: boolean }
  readonly stderr: { write(text: string): unknown; isTTY?: boolean }
  readonly env: NodeJS.ProcessEnv
  /** Input piped to the command (a password, so that it never appears in a process list). */
  readonly stdin?: AsyncIterable<string | Buffer>
}

/** A usage error: printed with the command's help, exit status 2. */
export class UsageError extends Error {}

/** A command that could not do its work for a reason the user can fix: one line, exit status 1. */
export class CommandFailure extends Error {}

/** The process's own streams and environment. */
export function processIO(): CliIO {
  return { stdout: process.stdout, stderr: process.stderr, env: process.env, stdin: process.stdin }
}

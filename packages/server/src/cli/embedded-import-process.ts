import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
import { constants } from 'node:os'

/**
 * The Node flags of an embedded import's child: WebAssembly compiled by Liftoff only, and the
 * young generation `npm start` gives the server unless the command line sets one.
 */
export const EMBEDDED_IMPORT_FLAGS = ['--liftoff-only', '--max-semi-space-size=16'] as const

/**
 * Runs `workgraph import` into the embedded database in a child process with
 * EMBEDDED_IMPORT_FLAGS, and returns its exit status; null when this process should run the
 * command itself. Opening PGlite in a process that may optimize its WebAssembly costs a large,
 * transient share of memory in V8's optimizing compiler, and a large import ran slower that way
 * too (bench/HISTORY.md, "Memory").
 */
export async function runEmbeddedImportInChild(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
): Promise<number | null> {
  const args = embeddedImportChildArgs(argv, env, process.execArgv, process.argv[1])
  if (!args) return null
  // A signal that stops the command stops the import: the child is not left writing on its own.
  // The handlers come first: until spawn returns, a signal would otherwise end this process only.
  let child: ChildProcess | undefined
  let stopped: NodeJS.Signals | undefined
  const forward = (signal: NodeJS.Signals) => {
    stopped = signal
    child?.kill(signal)
  }
  for (const signal of FORWARDED) process.on(signal, forward)
  try {
    child = spawn(process.execPath, args, { stdio: 'inherit', env })
    if (stopped) child.kill(stopped)
    const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null]
    return code ?? 128 + (signal ? constants.signals[signal] : 0)
  } finally {
    for (const signal of FORWARDED) process.off(signal, forward)
  }
}

const FORWARDED: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP']

/**
 * The child's Node arguments for a command line, or null for another command, an import into
 * PostgreSQL, or a process that already compiles by Liftoff only.
 */
export function embeddedImportChildArgs(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  execArgv: readonly string[],
  entry: string | undefined,
): string[] | null {
  if (argv[0] !== 'import' || !entry || execArgv.includes('--liftoff-only')) return null
  if (!usesEmbeddedDatabase(argv.slice(1), env)) return null
  const own = EMBEDDED_IMPORT_FLAGS.filter(
    (flag) => !execArgv.some((given) => given.split('=')[0] === flag.split('=')[0]),
  )
  return [...execArgv, ...own, entry, ...argv]
}

// The engine as loadConfig picks it: `--data` wins, then `--database-url`, then DATABASE_URL. A
// wrong guess costs only memory or time: either process runs the same command.
function usesEmbeddedDatabase(args: readonly string[], env: NodeJS.ProcessEnv): boolean {
  if (args.some((arg) => arg === '--data' || arg.startsWith('--data='))) return true
  if (args.some((arg) => arg === '--database-url' || arg.startsWith('--database-url=')))
    return false
  return !env.DATABASE_URL
}

import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
import { Socket } from 'node:net'
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
    // The child's fd 3 is a pipe this process holds open until it ends, however it ends: the
    // child stops when it closes (endWithParent), so it never imports alone.
    child = spawn(process.execPath, args, {
      stdio: ['inherit', 'inherit', 'inherit', 'pipe'],
      env: { ...env, [PARENT_PIPE]: String(PIPE_FD) },
    })
    if (stopped) child.kill(stopped)
    const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null]
    return code ?? 128 + (signal ? constants.signals[signal] : 0)
  } finally {
    for (const signal of FORWARDED) process.off(signal, forward)
  }
}

const FORWARDED: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP']

// The command this process runs for, when it is an embedded import's child.
let parent: number | undefined

/**
 * Whether the command that started this process still waits for it (always, for a process no
 * command started). Read when the pipe's end may not have been heard yet: a child busy in one long
 * statement hears it only after, so an import asks this just before it commits.
 */
export function commandStillWaits(): boolean {
  return parent === undefined || process.ppid === parent
}

// How the parent tells its child where the pipe to watch is.
const PARENT_PIPE = 'WORKGRAPH_PARENT_PIPE'
const PIPE_FD = 3

/**
 * In an embedded import's child: ends this process the moment the command that started it ends,
 * even by `kill -9`, when nothing forwards a signal. Its pipe closes then; the import has not
 * committed (it is one transaction), so it leaves nothing behind, its lock goes with the
 * process, and no secret is printed to an output nobody reads.
 */
export function endWithParent(env: NodeJS.ProcessEnv): void {
  if (env[PARENT_PIPE] !== String(PIPE_FD)) return
  parent = process.ppid
  // Processes this one starts have no such pipe.
  delete env[PARENT_PIPE]
  const pipe = new Socket({ fd: PIPE_FD, readable: true, writable: false })
  const stop = () => {
    process.stderr.write(
      'workgraph import: the command that started this import ended; nothing was imported.\n',
    )
    process.exit(1)
  }
  pipe.on('end', stop)
  pipe.on('error', stop)
  pipe.resume()
  // The watch must not keep a finished import alive.
  pipe.unref()
}

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

/**
 * How glibc's malloc is set for a server. Every thread that allocates gets an arena of its own
 * (up to eight per core), and past its first large frees malloc raises the threshold at which it
 * gives memory back: what V8's compiler threads freed while compiling the embedded database's
 * WebAssembly stayed resident. Two arenas and a fixed 1 MiB threshold give it back
 * (bench/HISTORY.md, "Memory").
 */
export const MALLOC_SETTINGS = { MALLOC_ARENA_MAX: '2', MALLOC_TRIM_THRESHOLD_: '1048576' }

/**
 * Restarts `workgraph serve` in place, before it has opened anything, with the settings above
 * added to its environment: glibc reads them only when a process starts. `execve` keeps the
 * process id, so signals, the data folder's lock (taken later) and process managers see one
 * process. A setting already in the environment is kept; when all are there, or elsewhere than
 * Linux, or on a Node without `process.execve`, or when it fails, it does nothing.
 */
export function applyMallocSettings(argv: readonly string[]): void {
  if (argv[0] !== 'serve' || process.platform !== 'linux') return
  const missing = Object.entries(MALLOC_SETTINGS).filter(
    ([name]) => process.env[name] === undefined,
  )
  if (missing.length === 0 || typeof process.execve !== 'function') return
  const env = { ...process.env, ...Object.fromEntries(missing) }
  try {
    process.execve(
      process.execPath,
      [process.execPath, ...process.execArgv, ...process.argv.slice(1)],
      env,
    )
  } catch {
    // Only memory is at stake: a process that cannot be replaced serves as it is.
  }
}

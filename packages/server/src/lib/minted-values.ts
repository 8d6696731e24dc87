import { AsyncLocalStorage } from 'node:async_hooks'

// The values minted inside `recordingMinted`, per asynchronous context: a dry run's, not those of
// the requests that run beside it in the same process.
const minted = new AsyncLocalStorage<Set<string>>()

/**
 * Reports a freshly minted id or secret to the recording around it, if any. Called by `newId`
 * and by every secret generator, so a dry run can answer them as null.
 */
export function noteMinted(value: string): void {
  minted.getStore()?.add(value)
}

/**
 * Runs `fn` with the set of every id and secret minted inside it (its awaits included), which
 * grows as `fn` runs, and answers what `fn` answered with the final set.
 */
export async function recordingMinted<T>(
  fn: (values: ReadonlySet<string>) => Promise<T>,
): Promise<{ value: T; minted: ReadonlySet<string> }> {
  const values = new Set<string>()
  const value = await minted.run(values, () => fn(values))
  return { value, minted: values }
}

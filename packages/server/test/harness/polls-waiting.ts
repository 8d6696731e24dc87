import { setTimeout as pause } from 'node:timers/promises'
import type { AppDeps } from '../../src/app-deps.ts'

/**
 * Resolves once at least `count` long polls of the change feed wait on the workspace in this
 * app: a test acts on a waiting poll by what the server says, not by how long it has slept.
 * Throws after `timeoutMs`, so that a poll that never waits fails the test instead of hanging.
 */
export async function pollsWaiting(
  deps: Pick<AppDeps, 'changeSignal'>,
  workspaceId: string,
  count = 1,
  timeoutMs = 30_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (deps.changeSignal.waiting(workspaceId) < count) {
    if (Date.now() > deadline) throw new Error(`fewer than ${count} polls waited`)
    await pause(20)
  }
}

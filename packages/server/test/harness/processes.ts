import { readdirSync, readFileSync } from 'node:fs'

/** The pids of a process's children, read from /proc (Linux). */
export function childrenOf(pid: number): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        return (
          Number(readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1]?.split(' ')[1]) === pid
        )
      } catch {
        return false // it ended while we looked
      }
    })
    .map(Number)
}

/** Whether a process still runs: not gone, and not a zombie waiting to be reaped. */
export function isRunning(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ')[0] !== 'Z'
  } catch {
    return false
  }
}

/** Whether a process has ended within `ms`. */
export async function endsWithin(pid: number, ms = 10_000): Promise<boolean> {
  const deadline = Date.now() + ms
  while (Date.now() < deadline) {
    if (!isRunning(pid)) return true
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  return !isRunning(pid)
}

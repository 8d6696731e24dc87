import { readFileSync } from 'node:fs'

// Linux counts CPU time in ticks of 1/100 s (USER_HZ) in /proc/<pid>/stat.
const TICKS_PER_SECOND = 100

/** CPU seconds (user and system) a process has used so far; 0 once it is gone. */
export function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // Fields after the command name, which is in parentheses and may contain spaces.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND
  } catch {
    return 0
  }
}

/**
 * CPU used by a changing set of processes between two readings, as a share of one core: the
 * PostgreSQL backends of a database come and go, so each pid's own previous reading is kept.
 */
export class CpuMeter {
  private seen = new Map<number, number>()
  private at = performance.now()

  /** Percent of one core used by `pids` since the last call (a pid new since then counts whole). */
  read(pids: number[]): number {
    const since = this.at
    const used = this.seconds(pids)
    return (used / ((this.at - since) / 1000)) * 100
  }

  /** CPU seconds used by `pids` since the last call (a pid new since then counts whole). */
  seconds(pids: number[]): number {
    let used = 0
    const seen = new Map<number, number>()
    for (const pid of pids) {
      const seconds = cpuSeconds(pid)
      used += seconds - (this.seen.get(pid) ?? 0)
      seen.set(pid, seconds)
    }
    this.seen = seen
    this.at = performance.now()
    return used
  }
}

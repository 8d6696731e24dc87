/** What a progress line shows: the phase, the count and, once it can be told, the time left. */
export interface ProgressState {
  label: string
  phase: string
  done: number
  total: number
  /** Milliseconds since the first row was written. */
  elapsedMs: number
}

const WIDTH = 30

// Seconds or minutes, rounded the way people say them.
function roughly(ms: number): string {
  const seconds = Math.ceil(ms / 1000)
  return seconds < 90 ? `about ${seconds} s left` : `about ${Math.round(seconds / 60)} min left`
}

/**
 * One line of progress: `Importing: writing tasks [####....] 45% 9000/20000, about 12 s left`.
 * The estimate appears after two seconds and 1 % of the rows, when the rate has settled a little.
 */
export function progressLine(state: ProgressState): string {
  const { done, total } = state
  if (total === 0) return `${state.label}: ${state.phase}…`
  const share = done / total
  const filled = Math.round(share * WIDTH)
  const bar = `[${'#'.repeat(filled)}${'.'.repeat(WIDTH - filled)}]`
  const settled = state.elapsedMs >= 2000 && done > 0 && share >= 0.01 && done < total
  const left = settled ? `, ${roughly(((total - done) * state.elapsedMs) / done)}` : ''
  return `${state.label}: ${state.phase} ${bar} ${Math.floor(share * 100)}% ${done}/${total}${left}`
}

/** Draws progress on one terminal line; draws nothing when the stream is not a terminal. */
export function progressBar(
  stream: { write(text: string): unknown; isTTY?: boolean },
  label: string,
) {
  let last = 0
  let started: number | undefined
  let phase = 'starting'
  let counts = { done: 0, total: 0 }
  const draw = (force: boolean) => {
    if (!stream.isTTY) return
    const now = Date.now()
    if (!force && now - last < 100 && counts.done < counts.total) return
    last = now
    const elapsedMs = started === undefined ? 0 : now - started
    // Clear to the end of the line: a shorter line must not leave the end of a longer one.
    stream.write(`\r${progressLine({ label, phase, ...counts, elapsedMs })}\x1b[K`)
  }
  return {
    update(done: number, total: number): void {
      started ??= Date.now()
      counts = { done, total }
      draw(false)
    },
    phase(name: string): void {
      phase = name
      draw(true)
    },
    finish(): void {
      if (stream.isTTY) stream.write('\n')
    },
  }
}

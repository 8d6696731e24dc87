/** The numbers of a key result that progress is measured from. */
export interface KeyResultMeasure {
  start: number
  target: number
  current: number
}

/**
 * How far a key result has come from its start towards its target, from 0 to 1. Works for
 * targets below the start too ("reduce open incidents from 40 to 5").
 */
export function keyResultProgress({ start, target, current }: KeyResultMeasure): number {
  if (target === start) return current === target ? 1 : 0
  const progress = (current - start) / (target - start)
  return round(Math.min(1, Math.max(0, progress)))
}

/** An objective's progress: the mean of its key results' progress (0 with no key results). */
export function objectiveProgress(keyResults: readonly KeyResultMeasure[]): number {
  if (keyResults.length === 0) return 0
  return round(keyResults.reduce((sum, kr) => sum + keyResultProgress(kr), 0) / keyResults.length)
}

// Four decimals: stable across engines and JSON round trips.
function round(value: number): number {
  return Math.round(value * 10_000) / 10_000
}

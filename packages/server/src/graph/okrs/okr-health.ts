/*
 * Whether an objective is on track: its progress measured against the share of its period that
 * has passed (docs/api.md, "OKR health"). The period is read from the session's name; a session
 * named any other way has no period, and so no verdict.
 */

/** What an objective's health says. */
export type HealthVerdict = 'achieved' | 'on_track' | 'at_risk' | 'off_track'

/** An objective's health: its verdict, and the progress its period's elapsed share asks for. */
export interface OkrHealth {
  verdict: HealthVerdict
  expected_progress: number
}

/** Every verdict, best first. */
export const HEALTH_VERDICTS: readonly HealthVerdict[] = [
  'achieved',
  'on_track',
  'at_risk',
  'off_track',
]

// How far behind the elapsed share progress may be and still count as on track, and at risk.
const ON_TRACK_SLACK = 0.1
const AT_RISK_SLACK = 0.25
// A latest confidence below this makes an objective on track by its numbers at risk: its owner
// says so.
const LOW_CONFIDENCE = 0.5

/**
 * The first day of a session's period and the first day after it (UTC): `2026-Q4` (a quarter),
 * `2026-H1` (a half) or `2026` (a year). Undefined for any other name.
 */
export function periodOf(session: string): { start: Date; end: Date } | undefined {
  const match = /^(\d{4})(?:-([QH])([1-4]))?$/.exec(session.trim().toUpperCase())
  if (!match) return undefined
  const year = Number(match[1])
  const [unit, index] = [match[2], Number(match[3])]
  if (unit === 'H' && index > 2) return undefined
  const months = unit === 'Q' ? 3 : unit === 'H' ? 6 : 12
  const first = unit ? (index - 1) * months : 0
  return {
    start: new Date(Date.UTC(year, first, 1)),
    end: new Date(Date.UTC(year, first + months, 1)),
  }
}

/**
 * A session as it is stored: one that names a period in the form `periodOf` reads, whatever its
 * case and spaces, as `2026-Q4`, so that the list's `session` filter finds it; any other as given.
 */
export function storedSession(session: string): string {
  return periodOf(session) ? session.trim().toUpperCase() : session
}

/**
 * The health of an objective with this progress (0 to 1) and latest check-in confidence, on
 * `today`: achieved at full progress; otherwise on track when progress is at most 0.1 behind the
 * share of the period elapsed, at risk when at most 0.25 behind, off track beyond. A confidence
 * below 0.5 turns on track into at risk. Null when the session names no period.
 */
export function okrHealth(
  progress: number,
  confidence: number | null,
  session: string,
  today: Date,
): OkrHealth | null {
  const period = periodOf(session)
  if (!period) return null
  const length = period.end.getTime() - period.start.getTime()
  // Whole days (UTC): the verdict is the same all day, in records and summaries alike.
  const day = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate())
  const elapsed = (day - period.start.getTime()) / length
  const expected = Math.round(Math.min(1, Math.max(0, elapsed)) * 100) / 100
  const behind = expected - progress
  let verdict: HealthVerdict =
    progress >= 1
      ? 'achieved'
      : behind <= ON_TRACK_SLACK
        ? 'on_track'
        : behind <= AT_RISK_SLACK
          ? 'at_risk'
          : 'off_track'
  if (verdict === 'on_track' && confidence !== null && confidence < LOW_CONFIDENCE)
    verdict = 'at_risk'
  return { verdict, expected_progress: expected }
}

/**
 * The session names of the periods that hold `day` (UTC), as `periodOf` reads them: its year,
 * half and quarter (`2026`, `2026-H2`, `2026-Q4`).
 */
export function currentSessions(day: Date): string[] {
  const year = day.getUTCFullYear()
  const month = day.getUTCMonth()
  return [`${year}`, `${year}-H${month < 6 ? 1 : 2}`, `${year}-Q${Math.floor(month / 3) + 1}`]
}

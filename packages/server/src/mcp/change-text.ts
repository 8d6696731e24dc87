import type { ShownChange } from '../activity/changed-people.ts'
import { data, inline } from './markdown.ts'

// Fields whose values are long prose, or lists (an objective's key results): that they changed
// is the fact; the values are a fetch away.
const PROSE = new Set(['description', 'summary', 'key_results'])

/**
 * What an entry changed, as one fact of its line: `status todo → done, assignee Ada → Elena`.
 * People by name where the caller may read them (else by id); nobody is "none". Null when the
 * entry lists no field.
 */
export function changeText(changes: Record<string, ShownChange>): string | null {
  const parts = Object.entries(changes).map(([field, change]) => {
    const label = field.replace(/_id$/, '')
    if (PROSE.has(field)) return `${label} edited`
    const from = valueText(change.from_name ?? change.from)
    const to = valueText(change.to_name ?? change.to)
    return `${label} ${from} → ${to}`
  })
  return parts.length === 0 ? null : parts.join(', ')
}

function valueText(value: unknown): string {
  if (value === null || value === undefined) return 'none'
  if (typeof value === 'string') return /\s/.test(value) ? data(value, 60) : inline(value)
  return inline(JSON.stringify(value))
}

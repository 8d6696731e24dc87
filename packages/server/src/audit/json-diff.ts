/** A field's value before and after a change. */
export interface FieldDiff {
  from: unknown
  to: unknown
}

/**
 * The fields that differ between two versions of a record (`null` before a creation or after a
 * removal), compared as JSON so that dates and arrays compare by value.
 */
export function jsonDiff(
  before: Record<string, unknown> | null,
  after: Record<string, unknown> | null,
): Record<string, FieldDiff> {
  const diff: Record<string, FieldDiff> = {}
  const keys = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])
  for (const key of [...keys].sort()) {
    const from = normalize(before?.[key])
    const to = normalize(after?.[key])
    if (JSON.stringify(from) !== JSON.stringify(to)) diff[key] = { from, to }
  }
  return diff
}

function normalize(value: unknown): unknown {
  if (value === undefined) return null
  if (value instanceof Date) return value.toISOString()
  return value
}

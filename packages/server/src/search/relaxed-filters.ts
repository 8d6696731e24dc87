import type { Static } from 'typebox'
import type { AppliedFilters } from './search.schemas.ts'
import type { SearchFilterValues } from './search-filter-values.ts'

/*
 * What an answer that would be empty drops (docs/api.md, "When nothing matches everything read"):
 * the filters read from the question's words, which a reader can get wrong ("the week of the
 * 16th" as a due date, "at risk" of a launch as an objective's health). It keeps what names
 * someone or something (a person, a team, a project, what comments are on), since a name resolved
 * among what the caller may see is rarely wrong, and every filter the request gave in `filters`
 * or typed in the query's grammar, which say exactly what is wanted.
 */

type Applied = Static<typeof AppliedFilters>

// The filters that name someone or something, and the fields `interpreted.filters` names them by.
const NAMING: Record<string, readonly string[]> = {
  project_id: ['project_name', 'project'],
  assignee: ['assignee_name'],
  created_by: ['created_by_name'],
  team: ['team_name'],
  on: ['on_title'],
  member: [],
  owner: [],
}

/** The filters an answer keeps when it drops those read from words, and those it drops. */
export interface Relaxation {
  kept: SearchFilterValues
  /** `interpreted.filters` of the relaxed answer: the kept filters and their names. */
  applied: Applied
  /** The filters dropped, as `interpreted.filters` showed them. */
  dropped: Applied
}

/**
 * Splits `values` (the filters searched, as `interpreted.filters` shows them in `applied`) into
 * those kept and those dropped when a question's answer would be empty: `exact` names the filters
 * given or typed, kept whatever they are.
 */
export function relaxFilters(
  values: SearchFilterValues,
  applied: Applied,
  exact: ReadonlySet<string>,
): Relaxation {
  const keeps = (key: string, value: unknown) =>
    exact.has(key) || (key in NAMING && value !== 'none')
  const kept: SearchFilterValues = {}
  const keptFields = new Set<string>()
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined || !keeps(key, value)) continue
    ;(kept as Record<string, unknown>)[key] = value
    keptFields.add(key)
    for (const field of NAMING[key] ?? []) keptFields.add(field)
  }
  const split = (keep: boolean) =>
    Object.fromEntries(
      Object.entries(applied).filter(([key]) => keptFields.has(key) === keep),
    ) as Applied
  return { kept, applied: split(true), dropped: split(false) }
}

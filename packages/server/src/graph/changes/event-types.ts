import { ProblemError } from '../../api/problem-catalogue.ts'
import { ACTIVITY_VERBS, type ActivityVerb } from '../../catalogue/verbs.ts'

// One name of a `types=` list, trimmed as knownVerbs trims it.
const VERB = `\\s*(?:${ACTIVITY_VERBS.map((verb) => verb.replace(/\./g, '\\.')).join('|')})\\s*`

/** What parseEventTypes accepts, as a pattern for the OpenAPI document. */
export const EVENT_LIST_PATTERN = `^${VERB}(?:,${VERB})*$`

/**
 * The events of a `types=` filter (a comma-separated list of activity verbs), sorted and without
 * repeats; an unknown name is a 422 naming the known ones.
 */
export function parseEventTypes(types: string | undefined): ActivityVerb[] {
  if (types === undefined) return []
  return knownVerbs(types.split(','), '/types', 'The query string is invalid.')
}

/**
 * These names as activity verbs, trimmed, sorted and without repeats; an unknown name, or none
 * at all, is a 422 at `path` naming the known ones.
 */
export function knownVerbs(given: readonly string[], path: string, detail: string): ActivityVerb[] {
  const names = [...new Set(given.map((name) => name.trim()))].sort()
  const known = new Set<string>(ACTIVITY_VERBS)
  const unknown = names.filter((name) => !known.has(name))
  if (unknown.length > 0 || names.length === 0)
    throw new ProblemError('validation_failed', detail, {
      errors: [
        {
          path,
          message: `unknown event ${unknown.map((name) => `"${name}"`).join(', ')}; known: ${ACTIVITY_VERBS.join(', ')}`,
        },
      ],
    })
  return names as ActivityVerb[]
}

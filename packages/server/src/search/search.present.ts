import type { Static } from 'typebox'
import { kindNamed } from '../catalogue/catalogue.ts'
import { okrHealth } from '../graph/okrs/okr-health.ts'
import { isOverdue, utcDay } from '../lib/overdue.ts'
import { type CharRange, quoteRange } from '../lib/quote-range.ts'
import type { ResourceUrls } from '../lib/resource-urls.ts'
import { escapeMarkdown, plainLine, safeLine, safeText } from '../lib/safe-text.ts'
import type { SearchRow } from './search.queries.ts'
import type { SearchHit } from './search.schemas.ts'

const SNIPPET_CHARS = 240
// The kinds of the directory: their searched text beside the name is not a field of theirs.
const DIRECTORY = ['person', 'team']

/**
 * A hit as the API shows it, each text once: the citation names the field the query matched and
 * quotes it only when the quote would differ from both the title and the snippet. People's text
 * is shown by the one rule (lib/safe-text.ts); the range locates it in the field as stored.
 */
export function presentHit(
  row: SearchRow,
  urls: ResourceUrls,
  now: Date,
): Static<typeof SearchHit> {
  const snippet = clip(plainLine(row.snippet), SNIPPET_CHARS)
  const title = plainLine(row.title)
  const field = row.title_matched ? 'title' : (kindNamed(row.type)?.search?.bodyField ?? 'body')
  const updatedAt = row.updated_at.toISOString()
  const cited = citation(field, field === 'title' ? title : snippet, title, snippet)
  return {
    id: row.id,
    type: row.type,
    title: escapeMarkdown(title),
    ...(row.type === 'canvas' ? { summary: safeText(row.canvas_summary ?? '') } : {}),
    ...(row.type === 'task'
      ? {
          due: row.task_due,
          overdue: isOverdue({ status: row.task_status ?? '', due: row.task_due }, utcDay(now)),
          status: row.task_status ?? undefined,
          assignee: row.task_assignee === null ? null : safeLine(row.task_assignee),
        }
      : {}),
    ...(row.type === 'project' && row.project_status ? { status: row.project_status } : {}),
    ...(row.type === 'okr' && row.okr_facts ? okrFacts(row.okr_facts, now) : {}),
    url: urls.url,
    snippet: escapeMarkdown(snippet),
    path: row.path.map(safeLine).join(' › '),
    score: Math.round(row.rank * 1e6) / 1e6,
    updated_at: updatedAt,
    citation: {
      field: cited.field,
      ...(cited.quote === undefined ? {} : { quote: escapeMarkdown(cited.quote) }),
      updated_at: updatedAt,
      range: citedRange(row, field, cited.quote ?? (field === 'title' ? title : snippet)),
    },
  }
}

// An objective's progress, latest confidence and health, as its record gives them.
function okrFacts(facts: NonNullable<SearchRow['okr_facts']>, now: Date) {
  const progress = Number(facts.progress)
  const confidence = facts.confidence === null ? null : Number(facts.confidence)
  return { progress, confidence, health: okrHealth(progress, confidence, facts.session, now) }
}

/**
 * Where the cited text (the quote, else the snippet, or the title) lies in the field's text as
 * it was at `updated_at`. An activity entry's text is composed, not a field: it has no range.
 */
function citedRange(row: SearchRow, field: string, text: string): CharRange | null {
  // An activity entry's text, and the text search gives people and teams: not a field's.
  if (row.type === 'activity' || (field !== 'title' && DIRECTORY.includes(row.type))) return null
  return quoteRange(field === 'title' ? row.title : row.body, text)
}

/** A citation of `field`, quoting `quote` only where it adds to the title and the snippet. */
export function citation(
  field: string,
  quote: string,
  title: string,
  snippet: string,
): { field: string; quote?: string } {
  return quote === title || quote === snippet || quote === '' ? { field } : { field, quote }
}

// At most `max` characters, cut at a word boundary and marked.
function clip(text: string, max: number): string {
  if (text.length <= max) return text
  const cut = Array.from(text)
    .slice(0, max - 1)
    .join('')
  const space = cut.lastIndexOf(' ')
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`
}

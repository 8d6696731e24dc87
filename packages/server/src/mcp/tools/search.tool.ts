import Type from 'typebox'
import { readScopeOf } from '../../access/scopes.ts'
import { runSearch, type SearchAnswer, type SearchRequest } from '../../search/run-search.ts'
import { SEARCH_KINDS, SearchFilters } from '../../search/search.schemas.ts'
import { data, inline, sourceLine } from '../markdown.ts'
import { READ_ONLY, type ToolDefinition } from '../tool-definition.ts'
import { TOOL_BUDGET, toolError, toolResult } from '../tool-result.ts'
import { fitBoth } from './fit-both.ts'
import {
  BUDGET_NOTE,
  CURSOR_NOTE,
  Cursor,
  described,
  MaxTokens,
  NextCursor,
  Ref,
  terse,
} from './tool-schemas.ts'

type SearchArgs = Omit<SearchRequest, 'max_tokens'> & { max_tokens?: number }

/**
 * `search`: `POST /v1/search` as a tool. The question is read the same way (any word matches,
 * items covering more of it first, filter words such as "my overdue tasks"); the answer is the
 * REST body as data and a numbered list of hits, each with its URL, as Markdown.
 */
export const searchTool: ToolDefinition<SearchArgs> = {
  name: 'search',
  title: 'Search',
  description:
    'In plain language: "what is blocking checkout?", "my overdue tasks", "OKRs off track", ' +
    '"done last week".',
  anyOfScopes: [...new Set(SEARCH_KINDS.map(readScopeOf))],
  annotations: READ_ONLY,
  input: described(
    terse(
      Type.Object(
        {
          query: Type.String({ minLength: 1, maxLength: 500 }),
          filters: Type.Optional(SearchFilters),
          types: Type.Optional(
            Type.Array(Type.Enum([...SEARCH_KINDS]), { minItems: 1, uniqueItems: true }),
          ),
          limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 50, default: 10 })),
          cursor: Cursor,
          max_tokens: MaxTokens,
        },
        { additionalProperties: false },
      ),
    ),
    {
      query: 'A question or words.',
      filters: 'Exact filters.',
      'filters.status': 'Task statuses.',
      'filters.assignee': 'me, none, id or name.',
      'filters.project_id': 'Project id.',
      'filters.due': 'No due date.',
      'filters.due_before': 'Inclusive.',
      'filters.due_after': 'Inclusive.',
      'filters.updated_after': 'Date or time.',
      'filters.updated_before': 'Date or time.',
      'filters.completed_after': 'Done at or after.',
      'filters.completed_before': 'Done before.',
      'filters.created_after': 'Made at or after.',
      'filters.created_before': 'Made before.',
      'filters.health': 'OKR health.',
      'filters.team': 'Team id or name.',
      'filters.created_by': 'me or id: what they made or said.',
      'filters.member': 'me or id: their projects.',
      'filters.owner': 'me or id: what they own.',
      'filters.on': 'Comments on this id.',
      types: 'Only these kinds.',
      limit: 'Per page.',
      cursor: CURSOR_NOTE,
      max_tokens: BUDGET_NOTE,
    },
  ),
  output: Type.Object({ results: Type.Array(Ref), next_cursor: NextCursor }),
  async run(session, args) {
    try {
      const maxTokens = args.max_tokens ?? TOOL_BUDGET.default
      const answer = await fitBoth(maxTokens, async (budget) => {
        const text = await runSearch(session.deps, session.caller, { ...args, max_tokens: budget })
        const body = JSON.parse(text) as SearchAnswer
        return { markdown: render(args.query, body), structured: body }
      })
      return toolResult(answer)
    } catch (error) {
      return toolError(error)
    }
  },
}

// The hits as numbered lines: title and URL, kind, status and assignee, where it sits, due date,
// an objective's progress and health, and the snippet.
function render(query: string, body: SearchAnswer): string {
  const lines = [`# Search: ${data(query, 120)}`]
  const { words, filters } = body.interpreted
  const applied = Object.entries(filters).map(([name, value]) => `${name} ${inline(String(value))}`)
  const searched = words.length > 0 ? words.map(inline).join(', ') : 'anything'
  lines.push(
    `Searched for ${searched}${applied.length > 0 ? `; filters: ${applied.join('; ')}` : ''}.`,
  )
  const dropped = body.interpreted.dropped
  if (dropped) {
    const left = [
      ...Object.entries(dropped.filters).map(([name, value]) => `${name} ${inline(String(value))}`),
      ...(dropped.types.length > 0 ? [`only ${dropped.types.join(', ')}`] : []),
    ]
    lines.push(`Nothing you can open matched all of it: these leave out ${left.join('; ')}.`)
  }
  for (const [i, hit] of body.results.entries()) {
    const facts = [
      hit.type,
      ...(hit.status ? [hit.status] : []),
      ...(hit.assignee ? [`assigned to ${hit.assignee}`] : []),
      ...(hit.path ? [`in ${data(hit.path, 80)}`] : []),
      ...(hit.due ? [`due ${hit.due}${hit.overdue ? ', overdue' : ''}`] : []),
      ...okrWords(hit),
      `updated ${hit.citation.updated_at}`,
    ]
    lines.push(sourceLine(i + 1, hit.title, hit.url, facts))
    if (hit.snippet && hit.snippet !== hit.title) lines.push(`    ${data(hit.snippet)}`)
  }
  if (body.results.length === 0)
    lines.push(
      body.interpreted.broader
        ? `Nothing you can open matches. Without the filters, try: ${data(body.interpreted.broader, 120)}.`
        : 'Nothing you can open matches.',
    )
  if (body.next_cursor) lines.push('', `More: call search again with cursor "${body.next_cursor}".`)
  return lines.join('\n')
}

// An objective's progress, latest confidence and health verdict: "40% (confidence 60%), at risk".
function okrWords(hit: SearchAnswer['results'][number]): string[] {
  if (hit.progress === undefined) return []
  const confidence =
    hit.confidence === null || hit.confidence === undefined
      ? ''
      : ` (confidence ${Math.round(hit.confidence * 100)}%)`
  const verdict = hit.health ? `, ${hit.health.verdict.replace('_', ' ')}` : ''
  return [`${Math.round(hit.progress * 100)}% done${confidence}${verdict}`]
}

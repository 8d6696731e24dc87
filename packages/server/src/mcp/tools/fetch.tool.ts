import Type from 'typebox'
import { readScopes } from '../../access/scopes.ts'
import { notFound, ProblemError } from '../../api/problem-catalogue.ts'
import { summarizeResource } from '../../summaries/run-summary.ts'
import type { CompactSummaryBody } from '../../summaries/summary.schemas.ts'
import { data } from '../markdown.ts'
import type { McpSession } from '../mcp-session.ts'
import { summaryMarkdown } from '../summary-markdown.ts'
import { READ_ONLY, type ToolDefinition } from '../tool-definition.ts'
import { TOOL_BUDGET, toolError, toolResult } from '../tool-result.ts'
import { fitBoth } from './fit-both.ts'
import { MaxTokens } from './tool-schemas.ts'

// At most this many ids in one call: each gets an equal share of the budget.
const MAX_IDS = 5

// An id, or a URL that names one; URLs run longer than ids.
const Reference = Type.String({ minLength: 1, maxLength: 500 })

const Summary = Type.Object({ id: Type.String(), title: Type.String(), text: Type.String() })

const URL_START = /^https?:\/\//i

/**
 * `fetch`: any id to its summary (`GET /v1/resources/:id/summary`): statements with numbered
 * citations, typed facts and the sources they cite. It takes what an agent was given: an id, or
 * a `url` or `api_url` this service printed; or up to five of them at once, the budget shared. An
 * id the caller may not open, or of a type the token may not read, is the same not-found as an
 * id that does not exist; in a list, both are named back under `not_found` alike.
 */
export const fetchTool: ToolDefinition<{ id: string | string[]; max_tokens?: number }> = {
  name: 'fetch',
  title: 'Fetch by id',
  description:
    'Any id or url you were given, or up to 5, as a cited summary: status, people, dates, blockers.',
  anyOfScopes: readScopes(),
  annotations: READ_ONLY,
  input: Type.Object(
    {
      id: Type.Union(
        [Reference, Type.Array(Reference, { minItems: 1, maxItems: MAX_IDS, uniqueItems: true })],
        { description: 'An id or url, or a list of up to 5.' },
      ),
      max_tokens: MaxTokens,
    },
    { additionalProperties: false },
  ),
  // One summary, or for a list `results` and `not_found`. The subject's url is the last detail a
  // tiny budget gives up, so it is not declared.
  output: Type.Object({
    id: Type.Optional(Type.String()),
    title: Type.Optional(Type.String()),
    text: Type.Optional(Type.String()),
    sources: Type.Optional(Type.Array(Type.String())),
    results: Type.Optional(Type.Array(Summary)),
    not_found: Type.Optional(Type.Array(Type.String())),
  }),
  async run(session, args) {
    try {
      const maxTokens = args.max_tokens ?? TOOL_BUDGET.default
      if (!Array.isArray(args.id)) {
        const id = idOf(session, args.id)
        return toolResult(
          await fitBoth(maxTokens, async (budget) => {
            const { deps, caller } = session
            const summary = await summarizeResource(deps, caller, id, budget, 'compact')
            if (!summary) throw notFound()
            return { markdown: summaryMarkdown(summary.body), structured: summary.body }
          }),
        )
      }
      const refs = args.id
      return toolResult(
        await fitBoth(maxTokens, async (budget) => {
          const each = Math.floor(budget / refs.length)
          const results: CompactSummaryBody[] = []
          const missing: string[] = []
          for (const ref of refs) {
            const id = idIn(session, ref)
            const summary =
              id && (await summarizeResource(session.deps, session.caller, id, each, 'compact'))
            if (summary) results.push(summary.body)
            else missing.push(ref)
          }
          const parts = results.map(summaryMarkdown)
          if (missing.length > 0)
            parts.push(
              `Not found (no such id, or not one you can open): ${missing.map((ref) => data(ref, 120)).join(', ')}.`,
            )
          return {
            markdown: parts.join('\n\n---\n\n'),
            structured: { results, not_found: missing },
          }
        }),
      )
    } catch (error) {
      return toolError(error)
    }
  },
}

// The id a fetch names: an id as given, or the one in a URL of this service; undefined for any
// other URL.
function idIn(session: McpSession, ref: string): string | undefined {
  return URL_START.test(ref) ? session.deps.urls.idIn(ref) : ref
}

// The id of a fetch of one: not found, saying what would be found, for a URL of no id of ours.
function idOf(session: McpSession, ref: string): string {
  const id = idIn(session, ref)
  if (!id)
    throw new ProblemError(
      'not_found',
      'Not a URL of this service: give an id (tsk_…), or a url or api_url this service printed.',
    )
  return id
}

import Type from 'typebox'
import { readScopes } from '../../access/scopes.ts'
import { notFound } from '../../api/problem-catalogue.ts'
import { type SummaryBody, summarizeResource } from '../../summaries/run-summary.ts'
import { data, inline, link, sourceLine } from '../markdown.ts'
import { READ_ONLY, type ToolDefinition } from '../tool-definition.ts'
import { TOOL_BUDGET, toolError, toolResult } from '../tool-result.ts'
import { fitBoth } from './fit-both.ts'
import { MaxTokens, Ref } from './tool-schemas.ts'

/**
 * `fetch`: any id to its summary (`GET /v1/resources/:id/summary`): statements with numbered
 * citations, typed facts and the sources they cite. An id the caller may not open, or of a type
 * the token may not read, is the same not-found as an id that does not exist.
 */
export const fetchTool: ToolDefinition<{ id: string; max_tokens?: number }> = {
  name: 'fetch',
  title: 'Fetch by id',
  description:
    'Any id (prj_, tsk_, cnv_, obj_, kr_, usr_, team_, cmt_, act_…) as a cited summary: status, ' +
    'people, dates, what is blocked or due, latest activity.',
  anyOfScopes: readScopes(),
  annotations: READ_ONLY,
  input: Type.Object(
    { id: Type.String({ minLength: 1, maxLength: 100 }), max_tokens: MaxTokens },
    { additionalProperties: false },
  ),
  // The subject's url is the last detail a tiny budget gives up, so it is not declared required.
  output: Type.Object({
    id: Type.String(),
    title: Type.String(),
    text: Type.String(),
    sources: Type.Array(Ref),
  }),
  async run(session, args) {
    try {
      const maxTokens = args.max_tokens ?? TOOL_BUDGET.default
      const answer = await fitBoth(maxTokens, async (budget) => {
        const summary = await summarizeResource(session.deps, session.caller, args.id, budget)
        if (!summary) throw notFound()
        return { markdown: render(summary.body), structured: summary.body }
      })
      return toolResult(answer)
    } catch (error) {
      return toolError(error)
    }
  },
}

// Title and page, the statements (their [n] refer to the sources below), facts, then sources.
function render(body: SummaryBody): string {
  const heading = body.url ? link(body.title, body.url) : data(body.title, 120)
  const lines = [`# ${heading} (${body.type} ${body.id})`]
  // The summary's text went through the rule for people's text when it was composed; its [n]
  // markers are the summary's own.
  if (body.text) lines.push('', body.text)
  const facts = Object.entries(body.facts).map(
    ([name, value]) => `${name}: ${inline(String(value))}`,
  )
  if (facts.length > 0) lines.push('', `Facts: ${facts.join('; ')}.`)
  if (body.sources.length > 0) lines.push('', 'Sources:')
  for (const [i, source] of body.sources.entries()) {
    // The version lets an agent tell whether what it cites has changed since.
    const version = `updated ${source.updated_at}`
    lines.push(sourceLine(i + 1, source.title, source.url, [source.type, source.id, version]))
  }
  const links = body.links.map((l) => `${l.rel} [${l.source}]`)
  if (links.length > 0) lines.push('', `Related: ${links.join(', ')}.`)
  if (body.truncated) lines.push('', '(Cut to fit max_tokens; ask again with more for the rest.)')
  return lines.join('\n')
}

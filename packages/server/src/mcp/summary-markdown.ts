import type { CompactSummaryBody } from '../summaries/summary.schemas.ts'
import { data, inline, link } from './markdown.ts'

/**
 * A cited summary (of a resource, or of what needs attention) in Markdown: its title and page,
 * then `summaryLines`.
 */
export function summaryMarkdown(body: CompactSummaryBody): string {
  const heading = body.url ? link(body.title, body.url) : data(body.title, 120)
  return [`# ${heading} (${body.type} ${body.id})`, ...summaryLines(body)].join('\n')
}

/**
 * The statements (their [n] refer to the sources listed after them), the facts (unless the
 * statements say them already) and the sources, each once, by id: the compact form, whose ids
 * `fetch` takes back (docs/mcp.md, "Results").
 */
export function summaryLines(body: CompactSummaryBody, withFacts = true): string[] {
  const lines: string[] = []
  // The summary's text went through the rule for people's text when it was composed; its [n]
  // markers are the summary's own.
  if (body.text) lines.push('', body.text)
  const facts = Object.entries(body.facts).map(
    ([name, value]) => `${name}: ${inline(String(value))}`,
  )
  if (withFacts && facts.length > 0) lines.push('', `Facts: ${facts.join('; ')}.`)
  const sources = body.sources.map((id, i) => `[${i + 1}] ${id}`)
  if (sources.length > 0) lines.push('', `Sources: ${sources.join(', ')}.`)
  if (body.truncated) lines.push('', '(Cut to fit max_tokens; ask again with more for the rest.)')
  return lines
}

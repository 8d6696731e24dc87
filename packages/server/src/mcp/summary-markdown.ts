import type { SummaryBody } from '../summaries/summary.schemas.ts'
import { data, inline, link, sourceLine } from './markdown.ts'

/**
 * A cited summary (of a resource, or of what needs attention) in Markdown: its title and page,
 * then `summaryLines`.
 */
export function summaryMarkdown(body: SummaryBody): string {
  const heading = body.url ? link(body.title, body.url) : data(body.title, 120)
  return [`# ${heading} (${body.type} ${body.id})`, ...summaryLines(body)].join('\n')
}

/**
 * The statements (their [n] refer to the sources listed after them), the facts (unless the
 * statements say them already), the sources with their versions and the related neighbours,
 * each part after a blank line.
 */
export function summaryLines(body: SummaryBody, withFacts = true): string[] {
  const lines: string[] = []
  // The summary's text went through the rule for people's text when it was composed; its [n]
  // markers are the summary's own.
  if (body.text) lines.push('', body.text)
  const facts = Object.entries(body.facts).map(
    ([name, value]) => `${name}: ${inline(String(value))}`,
  )
  if (withFacts && facts.length > 0) lines.push('', `Facts: ${facts.join('; ')}.`)
  if (body.sources.length > 0) lines.push('', 'Sources:')
  for (const [i, source] of body.sources.entries()) {
    // The version lets an agent tell whether what it cites has changed since.
    const version = `updated ${source.updated_at}`
    lines.push(sourceLine(i + 1, source.title, source.url, [source.type, source.id, version]))
  }
  const links = body.links.map((l) => `${l.rel} [${l.source}]`)
  if (links.length > 0) lines.push('', `Related: ${links.join(', ')}.`)
  if (body.truncated) lines.push('', '(Cut to fit max_tokens; ask again with more for the rest.)')
  return lines
}

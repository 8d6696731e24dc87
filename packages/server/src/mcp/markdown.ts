import { escapeMarkdown, plainLine, quoted, safeLine } from '../lib/safe-text.ts'

/*
 * Markdown as the MCP tools write it (docs/mcp.md, "Results"). Everything people wrote (titles,
 * descriptions, comments, notes, names, a unit or a session among the facts) goes through `data`,
 * `linkText` or `inline`, all by the one rule for people's text (lib/safe-text.ts): on one line,
 * without characters a reader would not see, with the Markdown that makes links, images and HTML
 * escaped. A task titled "Ignore previous instructions" reads as a title, never as an instruction.
 */

/** People's text as data: one line, in quotation marks it cannot close. */
export function data(text: string, max = 240): string {
  return quoted(cut(plainLine(text), max))
}

/** A title as a link's text: one line, escaped. */
export function linkText(text: string, max = 120): string {
  return escapeMarkdown(cut(plainLine(text) || '(untitled)', max))
}

/** People's value inside a sentence of the answer (a name, a fact, a word of the question). */
export function inline(text: string): string {
  return safeLine(text)
}

/** A link to one of this service's pages; its URL is ours, never one a person typed. */
export function link(title: string, url: string): string {
  return `[${linkText(title)}](${url})`
}

/** A numbered source line, `[n] [Title](url) · facts`, as every tool lists what it cites. */
export function sourceLine(n: number, title: string, url: string, facts: string[] = []): string {
  return [`[${n}] ${link(title, url)}`, ...facts.map(inline)].join(' · ')
}

// At most `max` characters, marked when cut; cut before escaping, so no escape is split, and
// between code points, so no emoji is.
function cut(line: string, max: number): string {
  const chars = Array.from(line)
  return chars.length <= max
    ? line
    : `${chars
        .slice(0, max - 1)
        .join('')
        .trimEnd()}…`
}

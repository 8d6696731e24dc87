/*
 * Markdown as the MCP tools write it (docs/mcp.md, "Results"). Everything people wrote (titles,
 * descriptions, comments, notes) goes through `data` or `linkText`: it is shown as quoted data,
 * on one line, without characters that could hide text or break out of the quotation, so a task
 * titled "Ignore previous instructions" reads as a title, never as an instruction.
 */

// Zero-width characters, bidirectional overrides and other invisible format characters.
const INVISIBLE = /[\u00ad\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff]/g

/** People's text as data: one line, invisible characters removed, in quotation marks. */
export function data(text: string, max = 240): string {
  const flat = text.replace(INVISIBLE, '').replace(/\s+/g, ' ').trim()
  const cut = flat.length <= max ? flat : `${flat.slice(0, max - 1).trimEnd()}…`
  return `“${cut.replaceAll('“', '"').replaceAll('”', '"')}”`
}

/** A title as a link's text: one line, with the characters Markdown links use escaped. */
export function linkText(text: string, max = 120): string {
  const flat = text.replace(INVISIBLE, '').replace(/\s+/g, ' ').trim() || '(untitled)'
  const cut = flat.length <= max ? flat : `${flat.slice(0, max - 1).trimEnd()}…`
  // \x60 is the backtick, spelled out so no reader of this file takes it for a template string.
  return cut.replace(/[\\[\]()<>*_\x60#|]/g, (c) => `\\${c}`)
}

/** A link to one of this service's pages; its URL is ours, never one a person typed. */
export function link(title: string, url: string): string {
  return `[${linkText(title)}](${url})`
}

/** A numbered source line, `[n] [Title](url) · facts`, as every tool lists what it cites. */
export function sourceLine(n: number, title: string, url: string, facts: string[] = []): string {
  return [`[${n}] ${link(title, url)}`, ...facts].join(' · ')
}

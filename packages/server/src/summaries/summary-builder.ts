/** A source, as a summary cites it. */
export interface CitationSource {
  id: string
  url: string
  title: string
  field: string
  quote?: string
}

/** A visible neighbour. */
export interface LinkEntry {
  rel: string
  id: string
  type: string
  title: string
  url: string
}

/** One sentence and the sources it rests on. */
export interface Statement {
  text: string
  sources: CitationSource[]
}

/** Facts are typed scalars: strings, numbers, booleans, or null. */
export type Facts = Record<string, string | number | boolean | null>

/**
 * Collects what a summarizer says: statements in the order of their importance (the budget
 * keeps a prefix), facts and links. Statements are templates filled with data; text written by
 * people only ever appears inside quotation marks, through `quote`.
 */
export class SummaryBuilder {
  readonly statements: Statement[] = []
  readonly facts: Facts = {}
  readonly links: LinkEntry[] = []

  /** Adds a statement backed by at least one source. */
  say(text: string, ...sources: CitationSource[]): this {
    if (sources.length === 0) throw new Error('a summary statement needs a source')
    this.statements.push({ text, sources })
    return this
  }

  /** Records a typed fact. */
  fact(name: string, value: string | number | boolean | null): this {
    this.facts[name] = value
    return this
  }

  /** Names a visible neighbour. */
  link(entry: LinkEntry): this {
    if (!this.links.some((l) => l.rel === entry.rel && l.id === entry.id)) this.links.push(entry)
    return this
  }
}

const QUOTE_CHARS = 240

/**
 * People's text as data: on one line, in quotation marks, cut at a sentence boundary. It is
 * never phrased as an instruction and never left unquoted, whatever it says.
 */
export function quote(text: string, max = QUOTE_CHARS): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  if (flat.length <= max) return `“${flat}”`
  const cut = flat.slice(0, max)
  const sentenceEnd = Math.max(cut.lastIndexOf('. '), cut.lastIndexOf('! '), cut.lastIndexOf('? '))
  const wordEnd = cut.lastIndexOf(' ')
  const end = sentenceEnd > max / 3 ? sentenceEnd + 1 : wordEnd > 0 ? wordEnd : max
  return `“${cut.slice(0, end).trimEnd()}…”`
}

/** A plain list in prose: "a", "a and b", "a, b and c". */
export function listing(items: string[]): string {
  if (items.length <= 1) return items[0] ?? ''
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`
}

/** "1 task", "3 tasks". */
export function count(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`
}

import { quoted as inQuotes, plainLine } from '../lib/safe-text.ts'

/** A resource a statement names, which becomes one of the summary's sources. */
export interface SourceRef {
  id: string
  type: string
  title: string
  url: string
  /** Its version: the `updated_at` (or, for what never changes, `created_at`) it was read at. */
  updated_at: string
}

/** Where quoted text comes from: a field of a resource, at a version. */
export interface QuoteOrigin {
  id: string
  updated_at: string
  field: string
}

/** A named resource in a statement: its title in quotation marks (unless `bare`), then [n]. */
export interface Named {
  ref: SourceRef
  /** Only the marker: the words around it already say what it is. */
  bare: boolean
}

/** People's text quoted in a statement: given up (with `lead`) before facts and statements. */
export interface Quoted {
  quote: string
  lead: string
  max: number
  /** The field the text is, when it is one: the summary then cites its character range. */
  origin?: QuoteOrigin
}

/** Part of a statement: template words, a named resource, or a quote. */
export type Piece = string | Named | Quoted

/** One sentence. `quoteOnly` ones say nothing without their quote and go with it. */
export interface Statement {
  pieces: Piece[]
  quoteOnly: boolean
}

/** Facts are typed scalars: strings, numbers, booleans, or null. */
export type Fact = string | number | boolean | null

/** A neighbour worth following, under its relation to the subject. */
export interface LinkRef {
  rel: string
  ref: SourceRef
}

/** What a statement template takes: words, numbers, names, quotes, or lists of them. */
export type Value = string | number | Piece | readonly Value[]

/**
 * Collects what a summarizer says, each kind in order of importance (the budget keeps a prefix
 * of each): statements, facts and links. Statements are templates filled with data; text written
 * by people only ever appears inside quotation marks, through `quote` and `quoted`.
 */
export class SummaryBuilder {
  readonly statements: Statement[] = []
  readonly facts: [string, Fact][] = []
  readonly links: LinkRef[] = []

  /** Adds a statement: a tagged template whose values are words, names or quotes. */
  say(strings: TemplateStringsArray, ...values: Value[]): this {
    this.statements.push({ pieces: piecesOf(strings, values), quoteOnly: false })
    return this
  }

  /** Adds a statement that only reports a quote (a description): it goes when quotes go. */
  sayQuote(strings: TemplateStringsArray, ...values: Value[]): this {
    this.statements.push({ pieces: piecesOf(strings, values), quoteOnly: true })
    return this
  }

  /** Records a typed fact; facts are given up from the last. */
  fact(name: string, value: Fact): this {
    if (!this.facts.some(([known]) => known === name)) this.facts.push([name, value])
    return this
  }

  /** Names a neighbour worth following; links are the first detail given up. */
  link(rel: string, ref: SourceRef | undefined): this {
    if (ref && !this.links.some((l) => l.rel === rel && l.ref.id === ref.id))
      this.links.push({ rel, ref })
    return this
  }
}

function piecesOf(strings: TemplateStringsArray, values: Value[]): Piece[] {
  const pieces: Piece[] = []
  const add = (value: Value) => {
    if (Array.isArray(value)) for (const item of value as readonly Value[]) add(item)
    else if (typeof value === 'number') pieces.push(String(value))
    else if (value !== '') pieces.push(value as Piece)
  }
  strings.forEach((text, i) => {
    add(text)
    if (i < values.length) add(values[i] as Value)
  })
  return pieces
}

/** A resource by its quoted title, then its marker: `“Checkout redesign” [2]`. */
export function named(ref: SourceRef): Named {
  return { ref, bare: false }
}

/** Only the marker of a resource (` [2]`), where the words already say what it is. */
export function marker(ref: SourceRef): Named {
  return { ref, bare: true }
}

/** People's text, quoted after `lead` (`commented “…”`); left out, lead and all, to save room. */
export function quoted(text: string, lead = ' ', max = QUOTE_CHARS): Quoted | string {
  return text.trim() ? { quote: text, lead, max } : ''
}

/** A resource's field, quoted and cited (docs/api.md, "Citations"); see `quoted`. */
export function quotedField(
  origin: QuoteOrigin,
  text: string,
  lead = ' ',
  max = QUOTE_CHARS,
): Quoted | string {
  return text.trim() ? { quote: text, lead, max, origin } : ''
}

const QUOTE_CHARS = 240

/**
 * People's text as data: on one line, in quotation marks, cut at a sentence boundary, by the one
 * rule for people's text (lib/safe-text.ts). It is never phrased as an instruction and never left
 * unquoted, whatever it says.
 */
export function quote(text: string, max = QUOTE_CHARS): string {
  return inQuotes(quoteLine(text, max))
}

/**
 * What `quote` shows of `text`, before the quotation marks and escapes: on one line, without the
 * characters answers never show, cut at a sentence boundary and ending in `…` when cut. A
 * citation's range locates this line in the field.
 */
export function quoteLine(text: string, max = QUOTE_CHARS): string {
  const flat = plainLine(text)
  if (flat.length <= max) return flat
  const cut = Array.from(flat).slice(0, max).join('')
  const sentenceEnd = Math.max(cut.lastIndexOf('. '), cut.lastIndexOf('! '), cut.lastIndexOf('? '))
  const wordEnd = cut.lastIndexOf(' ')
  const end = sentenceEnd > max / 3 ? sentenceEnd + 1 : wordEnd > 0 ? wordEnd : cut.length
  return `${cut.slice(0, end).trimEnd()}…`
}

/** A plain list in prose: "a", "a and b", "a, b and c". */
export function listing(items: readonly Value[]): Value[] {
  const out: Value[] = []
  items.forEach((item, i) => {
    if (i > 0) out.push(i === items.length - 1 ? ' and ' : ', ')
    out.push(item)
  })
  return out
}

/** "1 task", "3 tasks". */
export function count(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`
}

import { quoteRange } from '../lib/quote-range.ts'
import { quoted as inQuotes, safeLine, safeText } from '../lib/safe-text.ts'
import { countTokens, cutToTokens, ENCODING, serializeWithBudget } from '../lib/token-budget.ts'
import type {
  CompactSummaryBody,
  SummaryBody,
  SummaryBodyOf,
  SummaryForm,
} from './summary.schemas.ts'
import {
  type Piece,
  type Quoted,
  quote,
  quoteLine,
  type SourceRef,
  type SummaryBuilder,
} from './summary-builder.ts'

/** The subject of a summary. */
export interface SummaryHeader {
  id: string
  type: string
  title: string
  url: string
  as_of: string
}

/** How much of what was said goes in: a prefix of each list, and the subject's url or not. */
interface Detail {
  links: number
  /** Statements before this index keep their quotes. */
  quotes: number
  facts: number
  statements: number
  url: boolean
}

/**
 * Packs what a summarizer said into `maxTokens` of JSON of the form asked for, giving up detail in
 * a fixed order when it must: links (last first), then quotes (from the last statement), then
 * facts (last first), then statements down to the first, then the subject's url, then the first
 * statement is cut and at last the title. Any budget of 100 tokens or more fits. Returns the body
 * as sent.
 */
export function packSummary(
  header: SummaryHeader,
  builder: SummaryBuilder,
  maxTokens: number,
  form: SummaryForm = 'full',
): string {
  // Each form is packed by its own size: a compact summary keeps what the full one gives up.
  const shape = (body: SummaryBody): SummaryBodyOf<typeof form> =>
    form === 'compact' ? compactSummary(body) : body
  const size = (body: SummaryBody) => sizeOf(shape(body), maxTokens)
  const send = (body: SummaryBody) => serializeWithBudget(shape(body), JSON.stringify)
  const n = builder.statements.length
  const full: Detail = {
    links: builder.links.length,
    quotes: n,
    facts: builder.facts.length,
    statements: n,
    url: true,
  }
  const steps = lessAndLess(full)
  const fits = (body: SummaryBody) => size(body) <= maxTokens
  // Most summaries fit whole; otherwise each step gives up more, so the first one that fits is
  // found by bisection (then checked, walking on if need be).
  const whole = render(header, builder, full, full, maxTokens)
  if (fits(whole)) return send(whole)
  let low = 1
  let high = steps.length - 1
  while (low < high) {
    const mid = (low + high) >> 1
    if (fits(render(header, builder, steps[mid] as Detail, full, maxTokens))) high = mid
    else low = mid + 1
  }
  for (let at = low; at < steps.length; at++) {
    const body = render(header, builder, steps[at] as Detail, full, maxTokens)
    if (fits(body)) return send(body)
  }
  return send(cutToFit(header, builder, maxTokens, size))
}

// Every step from everything down to the first statement without the subject's url.
function lessAndLess(full: Detail): Detail[] {
  const steps: Detail[] = [full]
  let at = full
  const step = (change: Partial<Detail>) => {
    at = { ...at, ...change }
    steps.push(at)
  }
  for (let links = full.links - 1; links >= 0; links--) step({ links })
  for (let quotes = full.quotes - 1; quotes >= 0; quotes--) step({ quotes })
  for (let facts = full.facts - 1; facts >= 0; facts--) step({ facts })
  for (let statements = full.statements - 1; statements >= 1; statements--) step({ statements })
  step({ url: false })
  return steps
}

// The tokens of a body as sent: `used_tokens` is at most `max_tokens`, so count with that.
function sizeOf(body: SummaryBody | CompactSummaryBody, maxTokens: number): number {
  return countTokens(
    JSON.stringify({ ...body, budget: { ...body.budget, used_tokens: maxTokens } }),
  )
}

function render(
  header: SummaryHeader,
  builder: SummaryBuilder,
  detail: Detail,
  full: Detail,
  maxTokens: number,
): SummaryBody {
  const sources: SourceRef[] = []
  const numberOf = (ref: SourceRef) => {
    const index = sources.findIndex((s) => s.id === ref.id)
    if (index >= 0) return index + 1
    sources.push(ref)
    return sources.length
  }
  const quoted: SummaryBody['quotes'] = []
  const cite = (piece: Quoted, line: string) => {
    if (!piece.origin) return
    const { id, updated_at, field } = piece.origin
    quoted.push({ id, updated_at, field, range: quoteRange(piece.quote, line) })
  }
  const sentences: string[] = []
  builder.statements.slice(0, detail.statements).forEach((statement, i) => {
    const quotes = i < detail.quotes
    if (statement.quoteOnly && !quotes) return
    sentences.push(statement.pieces.map((piece) => words(piece, quotes, numberOf, cite)).join(''))
  })
  const links = builder.links
    .slice(0, detail.links)
    .map((link) => ({ rel: link.rel, source: numberOf(link.ref) }))
  return {
    id: header.id,
    type: header.type,
    title: safeLine(header.title),
    ...(detail.url ? { url: header.url } : {}),
    as_of: header.as_of,
    text: sentences.join(' '),
    facts: Object.fromEntries(
      builder.facts
        .slice(0, detail.facts)
        .map(([name, value]) => [name, typeof value === 'string' ? safeLine(value) : value]),
    ),
    sources: sources.map(({ id, type, title, url, updated_at }) => ({
      id,
      type,
      title: safeLine(title),
      url,
      updated_at,
    })),
    links,
    quotes: quoted,
    truncated: (Object.keys(full) as (keyof Detail)[]).some((key) => detail[key] !== full[key]),
    budget: { max_tokens: maxTokens, used_tokens: maxTokens, encoding: ENCODING },
  }
}

// A piece in words; `numberOf` gives a named resource its marker (undefined: names only), and
// `cite` hears of each quote shown (as its line, before quotation marks and escapes). Template
// words may hold people's values (a unit, a session): they go through the rule too.
function words(
  piece: Piece,
  quotes: boolean,
  numberOf: ((ref: SourceRef) => number) | undefined,
  cite?: (piece: Quoted, line: string) => void,
): string {
  if (typeof piece === 'string') return safeText(piece)
  if ('quote' in piece) {
    if (!quotes) return ''
    const line = quoteLine(piece.quote, piece.max)
    cite?.(piece, line)
    return `${piece.lead}${inQuotes(line)}`
  }
  const mark = numberOf ? ` [${numberOf(piece.ref)}]` : ''
  return piece.bare ? mark : `${quote(piece.ref.title)}${mark}`
}

// The last resort: the first statement without quotes, cut at a word, keeping the sources its
// kept words still name (or, when none survives, without markers, so more words fit); then the
// title, cut.
function cutToFit(
  header: SummaryHeader,
  builder: SummaryBuilder,
  maxTokens: number,
  size: (body: SummaryBody) => number,
): SummaryBody {
  const none: Detail = { links: 0, quotes: 0, facts: 0, statements: 0, url: false }
  const body = render(header, builder, none, { ...none, url: true }, maxTokens)
  const over = () => size(body) > maxTokens
  const marked = render(
    header,
    builder,
    { ...none, statements: 1 },
    { ...none, url: true },
    maxTokens,
  )
  const first = builder.statements.find((s) => !s.quoteOnly)
  const plain = first ? first.pieces.map((piece) => words(piece, false, undefined)).join('') : ''
  const withMarkers = (room: number) => {
    body.text = cutToTokens(marked.text, room).text
    const kept = Math.max(0, ...[...body.text.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1])))
    body.sources = marked.sources.slice(0, kept)
    return kept > 0
  }
  const withoutMarkers = (room: number) => {
    body.text = cutToTokens(plain, room).text
    body.sources = []
    return true
  }
  const room = maxTokens - size(body)
  if (!largestFitting(room, withMarkers, over)) largestFitting(room, withoutMarkers, over)
  if (over()) Object.assign(body, { text: '', sources: [] })
  for (let left = maxTokens - size({ ...body, title: '' }); over() && left > 1; left--)
    body.title = cutToTokens(safeLine(header.title), left).text
  if (over()) body.title = ''
  return body
}

// Bisects the largest room (tokens of text) whose body fits, and leaves the body so; false when
// none fits or the fitting one is refused by `apply` (returning false).
function largestFitting(
  room: number,
  apply: (room: number) => boolean,
  over: () => boolean,
): boolean {
  let low = 1
  let high = room
  while (low < high) {
    // JSON escapes can make the text cost more than its own tokens: test each room, never guess.
    const mid = (low + high + 1) >> 1
    apply(mid)
    if (over()) high = mid - 1
    else low = mid
  }
  return low >= 1 && room >= 1 && apply(low) && !over()
}

/**
 * The compact form of a full summary: the same subject, statements and facts; sources as ids;
 * links grouped by relation, in order; the quotation ranges left to the full form.
 */
export function compactSummary(body: SummaryBody): CompactSummaryBody {
  const links: Record<string, number[]> = {}
  for (const link of body.links) links[link.rel] = [...(links[link.rel] ?? []), link.source]
  return {
    id: body.id,
    type: body.type,
    title: body.title,
    ...(body.url === undefined ? {} : { url: body.url }),
    as_of: body.as_of,
    text: body.text,
    facts: body.facts,
    sources: body.sources.map((source) => source.id),
    links,
    truncated: body.truncated,
    budget: body.budget,
  }
}

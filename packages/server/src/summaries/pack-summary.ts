import type { Static } from 'typebox'
import { ProblemError } from '../http/problem-catalogue.ts'
import { countTokens, cutToTokens, ENCODING, serializeWithBudget } from '../lib/token-budget.ts'
import type { SummaryResponse } from './summary.schemas.ts'
import type { CitationSource, SummaryBuilder } from './summary-builder.ts'

type Summary = Static<typeof SummaryResponse>

/** The subject of a summary. */
export interface SummaryHeader {
  id: string
  type: string
  title: string
  url: string
  as_of: string
}

/**
 * Packs what a summarizer said into `maxTokens` of JSON: facts always, then statements in their
 * order of importance (each with its citations, numbered as they first appear), then links. What
 * does not fit is left out and `truncated` set; a first statement too long for the budget is cut
 * at a sentence boundary. Returns the response body as a string.
 */
export function packSummary(
  header: SummaryHeader,
  builder: SummaryBuilder,
  maxTokens: number,
): string {
  const body: Summary = {
    ...header,
    text: '',
    facts: builder.facts,
    links: [],
    citations: [],
    truncated: false,
    budget: { max_tokens: maxTokens, used_tokens: 99_999, encoding: ENCODING },
  }
  const size = () => countTokens(JSON.stringify(body))
  // The smallest useful summary: facts and the first statement cut to nothing but its citations.
  const firstSources = builder.statements[0]?.sources ?? []
  const minimum = countTokens(
    JSON.stringify({
      ...body,
      text: `… ${firstSources.map((_, i) => `[${i + 1}]`).join('')}`,
      citations: firstSources.map(citationOf),
    }),
  )
  if (minimum + 8 > maxTokens) {
    throw new ProblemError('validation_failed', 'max_tokens is too small for this summary.', {
      errors: [
        { path: '/max_tokens', message: `must be at least ${minimum + 8} for this resource` },
      ],
    })
  }
  // Statements take up to three quarters of the budget, then links, then any statements left.
  const statements = [...builder.statements]
  const addStatements = (limit: number, most = Number.POSITIVE_INFINITY) => {
    for (let added = 0; statements.length > 0 && added < most; added++) {
      const statement = statements[0] as (typeof statements)[number]
      const first = body.text === ''
      const before = { text: body.text, citations: body.citations.length }
      const markers = statement.sources
        .map((source) => `[${numberOf(body.citations, source)}]`)
        .join('')
      body.text = `${body.text}${first ? '' : ' '}${statement.text} ${markers}`
      if (size() > limit && first) {
        // Keep a cut first statement rather than nothing.
        const room = limit - countTokens(JSON.stringify({ ...body, text: markers }))
        body.text = `${cutToTokens(statement.text, Math.max(1, room - 2)).text} ${markers}`
        body.truncated = true
      }
      if (size() > limit) {
        body.text = before.text
        body.citations.length = before.citations
        return
      }
      statements.shift()
    }
  }
  // The first statement says what the subject is: it always goes in, cut if it must be.
  addStatements(maxTokens, 1)
  addStatements(Math.floor(maxTokens * 0.75))
  for (const link of builder.links) {
    body.links.push(link)
    if (size() > maxTokens) {
      body.links.pop()
      body.truncated = true
      break
    }
  }
  addStatements(maxTokens)
  if (statements.length > 0) body.truncated = true
  return serializeWithBudget(body, JSON.stringify)
}

// The 1-based number of a source among the citations, adding it if new.
function numberOf(citations: Summary['citations'], source: CitationSource): number {
  const index = citations.findIndex((c) => c.id === source.id && c.field === source.field)
  if (index >= 0) return index + 1
  citations.push(citationOf(source))
  return citations.length
}

function citationOf(source: CitationSource): Summary['citations'][number] {
  return {
    id: source.id,
    url: source.url,
    title: source.title,
    field: source.field,
    ...(source.quote === undefined ? {} : { quote: source.quote }),
  }
}

import type { Static } from 'typebox'
import { ProblemError } from '../api/problem-catalogue.ts'
import { countTokens, cutToTokens, ENCODING, serializeWithBudget } from '../lib/token-budget.ts'
import type { Interpreted, SearchHit, SearchResponse } from './search.schemas.ts'

type Hit = Static<typeof SearchHit>
type Response = Static<typeof SearchResponse>

/**
 * Packs hits in rank order into `maxTokens`, measured on the exact JSON sent. It stops at the
 * first hit that no longer fits and sets next_cursor to resume exactly there; only when not even
 * the first hit fits is its long text (canvas summary, snippet) cut at a sentence boundary and
 * marked `truncated`, so that every page makes progress. Returns the response body as a string.
 */
export function packSearch(
  hits: Hit[],
  hasMore: boolean,
  maxTokens: number,
  cursorAfter: (index: number) => string,
  interpreted: Static<typeof Interpreted>,
): string {
  // The envelope with the longest cursor this page could carry, and a five-digit count.
  const envelope = (results: Hit[], cursor: string | null): Response => ({
    results,
    next_cursor: cursor,
    interpreted,
    budget: { max_tokens: maxTokens, used_tokens: 99_999, encoding: ENCODING },
  })
  const worstCursor = hits.length > 0 ? cursorAfter(hits.length - 1) : null
  // Most pages fit whole, which their length in bytes shows without tokenizing every hit.
  if (Buffer.byteLength(JSON.stringify(envelope(hits, worstCursor))) <= maxTokens) {
    return serializeWithBudget(
      envelope(hits, hits.length > 0 && hasMore ? cursorAfter(hits.length - 1) : null),
      JSON.stringify,
    )
  }
  let used = countTokens(JSON.stringify(envelope([], worstCursor)))
  // A long question's interpretation alone may not fit: say what would, as for a long hit.
  if (used > maxTokens) throw tooSmall(used)
  const packed: Hit[] = []
  for (const [index, hit] of hits.entries()) {
    const cost = countTokens(JSON.stringify(hit)) + 1
    if (used + cost <= maxTokens) {
      packed.push(hit)
      used += cost
      continue
    }
    if (index === 0) {
      const fitted = shrinkToFit(hit, maxTokens - used - 1)
      if (!fitted) throw tooSmall(used + countTokens(JSON.stringify(minimal(hit))) + 1)
      packed.push(fitted)
    }
    break
  }
  const complete = packed.length === hits.length
  const cursor =
    packed.length === 0
      ? null
      : complete
        ? hasMore
          ? cursorAfter(packed.length - 1)
          : null
        : cursorAfter(packed.length - 1)
  let body = envelope(packed, cursor)
  let text = serializeWithBudget(body, JSON.stringify)
  // The estimate above is exact but for the cursor's own length: trim if it was optimistic.
  while (body.budget.used_tokens > maxTokens && packed.length > 1) {
    packed.pop()
    body = envelope(packed, cursorAfter(packed.length - 1))
    text = serializeWithBudget(body, JSON.stringify)
  }
  return text
}

// The hit with its long texts cut to fit `tokens`, or null when even empty texts do not fit.
function shrinkToFit(hit: Hit, tokens: number): Hit | null {
  const bare = minimal(hit)
  const room = tokens - countTokens(JSON.stringify(bare))
  if (room < 0) return null
  const summary =
    hit.summary === undefined ? undefined : cutToTokens(hit.summary, Math.floor(room / 2))
  const snippet = cutToTokens(hit.snippet, room - countTokens(summary?.text ?? ''))
  const fitted: Hit = {
    ...hit,
    snippet: snippet.text,
    ...(summary ? { summary: summary.text } : {}),
    citation: withoutQuote(hit.citation),
    truncated: true,
  }
  return countTokens(JSON.stringify(fitted)) <= tokens ? fitted : null
}

function minimal(hit: Hit): Hit {
  return {
    ...hit,
    snippet: '',
    ...(hit.summary === undefined ? {} : { summary: '' }),
    // A quote would repeat the cut snippet's text: the field alone still says where it matched.
    citation: withoutQuote(hit.citation),
    truncated: true,
  }
}

// The citation without its quote: the version and the range still say where the cut text is from.
function withoutQuote({ quote: _quote, ...rest }: Hit['citation']): Hit['citation'] {
  return rest
}

function tooSmall(needed: number): ProblemError {
  return new ProblemError(
    'validation_failed',
    'max_tokens is too small to hold even one result of this search.',
    { errors: [{ path: '/max_tokens', message: `must be at least ${needed} for this query` }] },
  )
}

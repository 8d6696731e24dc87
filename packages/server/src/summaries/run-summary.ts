import type { Caller } from '../access/caller.ts'
import type { AppDeps } from '../app-deps.ts'
import { kindOfId } from '../catalogue/catalogue.ts'
import { utcDay } from '../lib/overdue.ts'
import { packSummary } from './pack-summary.ts'
import type { SummaryBody, SummaryBodyOf, SummaryForm } from './summary.schemas.ts'
import { pageUrl, type Summarized, type SummaryContext } from './summary-context.ts'

export { DEFAULT_SUMMARY_TOKENS, type SummaryBody } from './summary.schemas.ts'

/** How a kind is summarized: null when the caller may not open the resource. */
export type Summarizer = (ctx: SummaryContext, id: string) => Promise<Summarized | null>

declare module '../catalogue/kind.ts' {
  interface KindParts {
    /** Its summary (`GET /v1/resources/:id/summary`, MCP `fetch`). */
    summarize: Summarizer
  }
}

/** A summary as sent: the exact JSON (what `used_tokens` counts) and the same, parsed. */
export interface SummaryResult<Body = SummaryBody> {
  text: string
  body: Body
}
/**
 * Summarizes any resource for a caller within `maxTokens` (100 or more), in the form asked for
 * (the full one by default), over any transport.
 * Null when the id is unknown, malformed, hidden from the caller or of a kind the caller's
 * token may not read: all alike, so nothing tells them apart. (HTTP checks the scope first and
 * answers 403; other callers get the same null as for a hidden resource.)
 */
export async function summarizeResource<F extends SummaryForm = 'full'>(
  deps: AppDeps,
  caller: Caller,
  id: string,
  maxTokens: number,
  form?: F,
): Promise<SummaryResult<SummaryBodyOf<F>> | null> {
  const kind = kindOfId(id)
  if (!kind?.summarize || !caller.credential.scopes.has(kind.readScope)) return null
  const now = deps.clock.now()
  const ctx = summaryContextOf(deps, caller, now)
  const summary = await kind.summarize(ctx, id)
  if (!summary) return null
  const header = {
    id,
    type: summary.type,
    title: summary.title,
    url: pageUrl(ctx, id, summary.type),
  }
  const asOf = now.toISOString()
  const text = packSummary({ ...header, as_of: asOf }, summary.builder, maxTokens, form ?? 'full')
  return { text, body: JSON.parse(text) as SummaryBodyOf<F> }
}

/** What a summarizer works with, for a caller at `now`. */
export function summaryContextOf(deps: AppDeps, caller: Caller, now: Date): SummaryContext {
  return {
    db: deps.db,
    visibility: caller.visibility,
    urls: deps.urls,
    today: utcDay(now),
    readableKinds: caller.readableKinds,
  }
}

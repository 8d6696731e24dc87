import { readScopeOf } from '../../access/scopes.ts'
import { ProblemError } from '../../api/problem-catalogue.ts'
import { ATTENTION_KINDS } from '../../attention/attention-focus.ts'
import {
  type Attention,
  attentionFor,
  DEFAULT_ATTENTION_LIMIT,
} from '../../attention/run-attention.ts'
import type { SummaryResult } from '../../summaries/run-summary.ts'
import type { CompactSummaryBody } from '../../summaries/summary.schemas.ts'
import { data } from '../markdown.ts'
import type { McpSession } from '../mcp-session.ts'
import { summaryLines } from '../summary-markdown.ts'

// The share of the budget that what needs attention may take: beside the caller's own lists of
// projects and teams, which fit in the rest; or, for another focus, with nothing to share with
// but the lines saying who the caller is.
const ATTENTION_SHARE = 0.6
const FOCUS_SHARE = 0.85

/** The smallest budget what needs attention is packed into: a summary's own smallest. */
export const MIN_ATTENTION_TOKENS = 100

/** Whom `workspace` is asked about, and since when. */
export interface AttentionAsk {
  for?: string | undefined
  since?: string | undefined
}

/** The share of an answer's budget that what needs attention starts from. */
export function attentionBudget(args: AttentionAsk, maxTokens: number): number {
  const own = args.for === undefined || args.for === 'me'
  return Math.floor(maxTokens * (own ? ATTENTION_SHARE : FOCUS_SHARE))
}

/**
 * What needs attention for the focus `workspace` is asked about (the caller by default), to be
 * packed into a share of the budget; null when the token reads none of tasks, OKRs and activity
 * (and a 403 when it then asks about a focus anyway).
 */
export async function attentionIfReadable(
  session: McpSession,
  args: AttentionAsk,
): Promise<Attention | null> {
  const { caller } = session
  if (!ATTENTION_KINDS.some((kind) => caller.readableKinds.includes(kind))) {
    if (args.for !== undefined || args.since !== undefined)
      throw new ProblemError('insufficient_scope', 'What needs attention needs a read scope.', {
        required_scopes: ATTENTION_KINDS.map(readScopeOf),
      })
    return null
  }
  return attentionFor(session.deps, caller, {
    for: args.for,
    since: args.since,
    limit: DEFAULT_ATTENTION_LIMIT,
  })
}

/**
 * The answer's section: a heading naming the focus unless it is the caller, then the summary's
 * statements and sources (its opening statement says the numbers its facts hold, so the facts
 * are not said twice).
 */
export function attentionLines(
  attention: SummaryResult<CompactSummaryBody>,
  callerId: string,
): string[] {
  const { body } = attention
  const whose =
    body.type === 'person' && body.id === callerId
      ? ''
      : ` for ${data(body.title, 120)} (${body.type} ${body.id})`
  return [`## Needs attention${whose}`, ...summaryLines(body, false)]
}

import type { Caller } from '../access/caller.ts'
import { READ_SCOPE_OF_ID_KIND } from '../access/scopes.ts'
import type { AppDeps } from '../app-deps.ts'
import { idKind } from '../lib/ids.ts'
import { packSummary } from './pack-summary.ts'
import { summarizeCanvas } from './summarize-canvas.ts'
import { summarizeActivity, summarizeComment, summarizeWorkspace } from './summarize-misc.ts'
import { summarizeCheckin, summarizeKeyResult, summarizeOkr } from './summarize-okr.ts'
import { summarizePerson, summarizeTeam } from './summarize-people.ts'
import { summarizeProject } from './summarize-project.ts'
import { summarizeTask } from './summarize-task.ts'
import type { SummaryBody } from './summary.schemas.ts'
import { pageUrl, type Summarized, type SummaryContext } from './summary-context.ts'

export { DEFAULT_SUMMARY_TOKENS, type SummaryBody } from './summary.schemas.ts'

/** A summary as sent: the exact JSON (what `used_tokens` counts) and the same, parsed. */
export interface SummaryResult {
  text: string
  body: SummaryBody
}

type Summarizer = (ctx: SummaryContext, id: string) => Promise<Summarized | null>

const SUMMARIZERS: Record<keyof typeof READ_SCOPE_OF_ID_KIND, Summarizer> = {
  workspace: summarizeWorkspace,
  person: summarizePerson,
  team: summarizeTeam,
  project: summarizeProject,
  canvas: summarizeCanvas,
  task: summarizeTask,
  objective: summarizeOkr,
  keyResult: summarizeKeyResult,
  checkin: summarizeCheckin,
  comment: summarizeComment,
  activity: summarizeActivity,
}

/**
 * Summarizes any resource for a caller within `maxTokens` (100 or more), over any transport.
 * Null when the id is unknown, malformed, hidden from the caller or of a kind the caller's
 * token may not read: all alike, so nothing tells them apart. (HTTP checks the scope first and
 * answers 403; other callers get the same null as for a hidden resource.)
 */
export async function summarizeResource(
  deps: AppDeps,
  caller: Caller,
  id: string,
  maxTokens: number,
): Promise<SummaryResult | null> {
  const kind = idKind(id) as keyof typeof READ_SCOPE_OF_ID_KIND | undefined
  if (!kind || !(kind in SUMMARIZERS)) return null
  if (!caller.credential.scopes.has(READ_SCOPE_OF_ID_KIND[kind])) return null
  const now = deps.clock.now()
  const ctx: SummaryContext = {
    db: deps.db,
    visibility: caller.visibility,
    urls: deps.urls,
    today: now.toISOString().slice(0, 10),
    readableTypes: caller.readableTypes,
  }
  const summary = await SUMMARIZERS[kind](ctx, id)
  if (!summary) return null
  const header = {
    id,
    type: summary.type,
    title: summary.title,
    url: pageUrl(ctx, id, summary.type),
  }
  const text = packSummary({ ...header, as_of: now.toISOString() }, summary.builder, maxTokens)
  return { text, body: JSON.parse(text) as SummaryBody }
}

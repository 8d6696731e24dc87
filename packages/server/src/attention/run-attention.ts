import type { Caller } from '../access/caller.ts'
import { listActivity } from '../activity/activity.queries.ts'
import type { AppDeps } from '../app-deps.ts'
import { currentSessions, okrHealth } from '../graph/okrs/okr-health.ts'
import { findWorkspace } from '../graph/workspace/workspace.queries.ts'
import { packSummary, type SummaryHeader } from '../summaries/pack-summary.ts'
import { type SummaryResult, summaryContextOf } from '../summaries/run-summary.ts'
import type { SummaryBodyOf, SummaryForm } from '../summaries/summary.schemas.ts'
import { activityNeighbours, sayActivity } from '../summaries/summary-activity.ts'
import { count, SummaryBuilder } from '../summaries/summary-builder.ts'
import { Mentions, pageUrl, type SummaryContext } from '../summaries/summary-context.ts'
import { attentionTasks, countAttentionTasks, currentObjectives } from './attention.queries.ts'
import { type AttentionFocus, attentionFocus } from './attention-focus.ts'
import { type ObjectiveAtRisk, sayObjective, sayOverview, sayTask } from './attention-statements.ts'

/** What an attention request asks (docs/api.md, "Attention"). */
export interface AttentionRequest {
  /** `me`, `workspace`, or a person, project or team id; see `attentionFocus`. */
  for?: string | undefined
  /** Changes from this time on; a week before now when absent. */
  since?: string | undefined
  /** At most this many tasks, objectives and changes each. */
  limit: number
}

/** What needs attention, said and not yet packed: pack it into any budget (`packAttention`). */
export interface Attention {
  header: SummaryHeader
  builder: SummaryBuilder
}

/** The default `limit`: the five most pressing of each, enough for a morning's look. */
export const DEFAULT_ATTENTION_LIMIT = 5

const WEEK_MS = 7 * 86_400_000

/**
 * What needs attention for a person, a project, a team or the workspace, said as a cited summary
 * (`packAttention` fits it to a budget): overdue, blocked and due-soon tasks, objectives of the current periods that
 * are at risk or off track, and what anyone but the caller changed since a time, most pressing
 * first. Each part needs its read scope (tasks, OKRs, activity) and counts only what the caller
 * may open.
 * Throws the API's 404 for a focus the caller may not open, and a 422 for a malformed one.
 */
export async function attentionFor(
  deps: AppDeps,
  caller: Caller,
  request: AttentionRequest,
): Promise<Attention> {
  const focus = await attentionFocus(deps.db, caller, request.for, '/for')
  const now = deps.clock.now()
  const since = request.since ? new Date(request.since) : new Date(now.getTime() - WEEK_MS)
  const ctx = summaryContextOf(deps, caller, now)
  const reads = (kind: string) => caller.readableKinds.includes(kind)
  const { db } = deps
  const { visibility } = caller
  const counts = reads('task') ? await countAttentionTasks(db, visibility, focus, ctx.today) : null
  const tasks = counts ? await attentionTasks(db, visibility, focus, ctx.today, request.limit) : []
  const objectives = reads('okr') ? await objectivesBehind(ctx, focus, now) : null
  const shownObjectives = (objectives ?? []).slice(0, request.limit)
  const changes = reads('activity')
    ? (
        await listActivity(
          db,
          visibility,
          caller.readableKinds,
          {
            ...changeFilter(focus),
            since: since.toISOString(),
            not_actor_id: caller.principal.actorId,
          },
          null,
          request.limit,
        )
      ).slice(0, request.limit)
    : null
  const mentions = await Mentions.load(ctx, [
    focus.type === 'workspace' ? null : focus.id,
    ...tasks.flatMap((t) => [t.id, t.assignee_id, t.project_id]),
    ...shownObjectives.flatMap((o) => [o.id, o.owner_id]),
    ...(changes ?? []).flatMap(activityNeighbours),
  ])
  const b = new SummaryBuilder()
  sayOverview(b, { today: ctx.today, counts, objectives, changes: changes?.length ?? null, since })
  // Most pressing first: objectives behind (few, and each the sum of many tasks), then overdue,
  // blocked and due-soon tasks (in that order from the query).
  for (const objective of shownObjectives) sayObjective(b, mentions, objective, focus)
  for (const task of tasks) sayTask(b, mentions, task, focus, ctx.today)
  if (counts && counts.total > tasks.length)
    b.say`${count(counts.total - tasks.length, 'more open task')} need attention.`
  for (const [i, entry] of (changes ?? []).entries()) {
    const lead = i === 0 ? 'The latest change: on' : 'On'
    b.link('changed', sayActivity(ctx, b, mentions, entry, lead, focus.id))
  }
  if (counts)
    b.fact('overdue_tasks', counts.overdue)
      .fact('blocked_tasks', counts.blocked)
      .fact('due_soon_tasks', counts.due_soon)
  if (objectives)
    b.fact(
      'off_track_okrs',
      objectives.filter((o) => o.health.verdict === 'off_track').length,
    ).fact('at_risk_okrs', objectives.filter((o) => o.health.verdict === 'at_risk').length)
  if (changes) b.fact('changes_since', since.toISOString())
  const header = {
    id: focus.id,
    type: focus.type,
    title: await focusTitle(deps, caller, focus, mentions),
    url: pageUrl(ctx, focus.id, focus.type),
    as_of: now.toISOString(),
  }
  return { header, builder: b }
}

/** What needs attention as sent: a cited summary within `maxTokens` (100 or more). */
export function packAttention<F extends SummaryForm = 'full'>(
  attention: Attention,
  maxTokens: number,
  form?: F,
): SummaryResult<SummaryBodyOf<F>> {
  const text = packSummary(attention.header, attention.builder, maxTokens, form ?? 'full')
  return { text, body: JSON.parse(text) as SummaryBodyOf<F> }
}

// The focus's objectives of the current periods that are at risk or off track, the furthest
// behind first.
async function objectivesBehind(
  ctx: SummaryContext,
  focus: AttentionFocus,
  now: Date,
): Promise<ObjectiveAtRisk[]> {
  const rows = await currentObjectives(ctx.db, ctx.visibility, focus, currentSessions(now))
  const behind = (o: ObjectiveAtRisk) => o.health.expected_progress - o.progress
  return rows
    .flatMap((row) => {
      const health = okrHealth(row.progress, row.confidence, row.session, now)
      return health && (health.verdict === 'off_track' || health.verdict === 'at_risk')
        ? [{ ...row, health }]
        : []
    })
    .sort((a, b) => behind(b) - behind(a) || a.id.localeCompare(b.id))
}

// Which activity is about the focus: a project's, or what concerns a person or a team's people.
function changeFilter(focus: AttentionFocus) {
  if (focus.type === 'project') return { project_id: focus.id }
  if (focus.type === 'person') return { concerning: { person_id: focus.id } }
  if (focus.type === 'team') return { concerning: { team_id: focus.id } }
  return {}
}

// What the answer is titled: the focus's name, where the token may read it.
async function focusTitle(
  deps: AppDeps,
  caller: Caller,
  focus: AttentionFocus,
  mentions: Mentions,
): Promise<string> {
  if (focus.type !== 'workspace')
    return mentions.name(focus.id) ?? (focus.id === caller.principal.actorId ? 'You' : focus.id)
  if (!caller.credential.scopes.has('workspace:read')) return 'Workspace'
  return (await findWorkspace(deps.db, caller.visibility)).workspace.name
}

import { findKeyResult, listCheckins } from '../graph/okrs/okr-parts.queries.ts'
import { keyResultProgress } from '../graph/okrs/okr-progress.ts'
import { listOkrs } from '../graph/okrs/okrs.queries.ts'
import type { Summarized } from './summarize-task.ts'
import { quote, SummaryBuilder } from './summary-builder.ts'
import { Mentions, type SummaryContext, source } from './summary-context.ts'

const percent = (progress: number) => `${Math.round(progress * 100)}%`

/** An objective: progress, each key result, the latest check-ins. */
export async function summarizeOkr(ctx: SummaryContext, id: string): Promise<Summarized | null> {
  const [okr] = await listOkrs(ctx.db, ctx.visibility, { ids: [id] }, null, 1)
  if (!okr) return null
  const checkins = await listCheckins(ctx.db, ctx.visibility, { objective_id: id }, 3)
  const mentions = await Mentions.load(ctx, [
    okr.owner_visible ? okr.owner_id : null,
    okr.team_visible ? okr.team_id : null,
    okr.project_visible ? okr.project_id : null,
    ...checkins.map((c) => (c.author_visible ? c.author_id : null)),
  ])
  const b = new SummaryBuilder()
  const owner = mentions.name(okr.owner_id)
  const team = mentions.name(okr.team_id)
  b.say(
    `Objective ${quote(okr.title)} (${okr.session}) is at ${percent(okr.progress)}${owner ? `; its owner is ${quote(owner)}` : ''}${team ? ` for team ${quote(team)}` : ''}.`,
    source(ctx, id, 'okr', okr.title, 'progress'),
  )
  const project = mentions.name(okr.project_id)
  if (project && okr.project_id)
    b.say(`It supports project ${quote(project)}.`, mentions.cite(okr.project_id, 'title'))
  for (const kr of okr.key_results) {
    b.say(
      `Key result ${quote(kr.title)} stands at ${kr.current} of ${kr.target}${kr.unit ? ` ${kr.unit}` : ''} (${percent(keyResultProgress(kr))}).`,
      source(ctx, kr.id, 'key_result', kr.title, 'current'),
    )
  }
  const titles = new Map(okr.key_results.map((kr) => [kr.id, kr.title]))
  for (const checkin of checkins)
    sayCheckin(ctx, b, mentions, checkin, titles.get(checkin.key_result_id) ?? '')
  b.fact('session', okr.session)
    .fact('progress', okr.progress)
    .fact('key_results', okr.key_results.length)
    .fact('owner_id', owner ? okr.owner_id : null)
    .fact('team_id', team ? okr.team_id : null)
    .fact('project_id', project ? okr.project_id : null)
  if (checkins[0]) b.fact('last_checkin_at', checkins[0].created_at.toISOString())
  mentions.link(b, 'owner', okr.owner_id)
  mentions.link(b, 'team', okr.team_id)
  mentions.link(b, 'project', okr.project_id)
  return { type: 'okr', title: okr.title, builder: b }
}

/** A key result: where it stands and its latest check-ins. */
export async function summarizeKeyResult(
  ctx: SummaryContext,
  id: string,
): Promise<Summarized | null> {
  const kr = await findKeyResult(ctx.db, ctx.visibility, id)
  if (!kr) return null
  const checkins = await listCheckins(ctx.db, ctx.visibility, { key_result_id: id }, 3)
  const mentions = await Mentions.load(ctx, [
    kr.objective_id,
    ...checkins.map((c) => (c.author_visible ? c.author_id : null)),
  ])
  const b = new SummaryBuilder()
  const objective = mentions.name(kr.objective_id) ?? ''
  b.say(
    `Key result ${quote(kr.title)} of objective ${quote(objective)} stands at ${kr.current} of ${kr.target}${kr.unit ? ` ${kr.unit}` : ''} (${percent(keyResultProgress(kr))}), from a start of ${kr.start}.`,
    source(ctx, id, 'key_result', kr.title, 'current'),
  )
  for (const checkin of checkins) sayCheckin(ctx, b, mentions, checkin, kr.title)
  b.fact('start', kr.start)
    .fact('target', kr.target)
    .fact('current', kr.current)
    .fact('unit', kr.unit)
    .fact('progress', keyResultProgress(kr))
  mentions.link(b, 'okr', kr.objective_id)
  return { type: 'key_result', title: kr.title, builder: b }
}

/** A check-in: who logged what, with what confidence, and their note. */
export async function summarizeCheckin(
  ctx: SummaryContext,
  id: string,
): Promise<Summarized | null> {
  const [checkin] = await listCheckins(ctx.db, ctx.visibility, { ids: [id] }, 1)
  if (!checkin) return null
  const kr = await findKeyResult(ctx.db, ctx.visibility, checkin.key_result_id)
  const mentions = await Mentions.load(ctx, [
    checkin.objective_id,
    checkin.author_visible ? checkin.author_id : null,
  ])
  const b = new SummaryBuilder()
  sayCheckin(ctx, b, mentions, checkin, kr?.title ?? '')
  b.fact('value', checkin.value)
    .fact('confidence', checkin.confidence)
    .fact('key_result_id', checkin.key_result_id)
  mentions.link(b, 'okr', checkin.objective_id)
  return { type: 'checkin', title: `Check-in on ${kr?.title ?? ''}`, builder: b }
}

function sayCheckin(
  ctx: SummaryContext,
  b: SummaryBuilder,
  mentions: Mentions,
  checkin: Awaited<ReturnType<typeof listCheckins>>[number],
  krTitle: string,
): void {
  const author = mentions.name(checkin.author_visible ? checkin.author_id : null)
  const confidence = checkin.confidence === null ? '' : ` with confidence ${checkin.confidence}`
  const note = checkin.note.trim() ? `, noting ${quote(checkin.note)}` : ''
  b.say(
    `On ${checkin.created_at.toISOString().slice(0, 10)}, ${author ? quote(author) : 'someone'} logged ${checkin.value} for ${quote(krTitle)}${confidence}${note}.`,
    source(
      ctx,
      checkin.id,
      'checkin',
      `Check-in on ${krTitle}`,
      'value',
      checkin.note.trim() || String(checkin.value),
    ),
  )
}

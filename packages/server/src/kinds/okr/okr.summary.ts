import { okrHealth } from '../../graph/okrs/okr-health.ts'
import { findKeyResult, listCheckins } from '../../graph/okrs/okr-parts.queries.ts'
import { keyResultProgress } from '../../graph/okrs/okr-progress.ts'
import { listOkrs } from '../../graph/okrs/okrs.queries.ts'
import {
  marker,
  named,
  quote,
  quotedField,
  type SourceRef,
  SummaryBuilder,
} from '../../summaries/summary-builder.ts'
import {
  day,
  Mentions,
  type Summarized,
  type SummaryContext,
  source,
} from '../../summaries/summary-context.ts'

type Checkin = Awaited<ReturnType<typeof listCheckins>>[number]

const percent = (progress: number) => `${Math.round(progress * 100)}%`
const amount = (value: number, unit: string) => `${value}${unit ? ` ${unit}` : ''}`
const krSource = (
  ctx: SummaryContext,
  kr: { id: string; title: string; updated_at: string | Date },
) => source(ctx, kr.id, 'key_result', kr.title, kr.updated_at)

/**
 * An objective: progress, owner and team; each key result's current value against its target;
 * the latest check-in; its project; older check-ins.
 */
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
  const owner = mentions.ref(okr.owner_visible ? okr.owner_id : null)
  const team = mentions.ref(okr.team_visible ? okr.team_id : null)
  b.say`This objective (${okr.session}) is at ${percent(okr.progress)}${owner ? ['; its owner is ', named(owner)] : ''}${team ? [' for team ', named(team)] : ''}.`
  const confidence = okr.confidence === null ? null : Number(okr.confidence)
  const health = okrHealth(okr.progress, confidence, okr.session, new Date(ctx.today))
  if (health)
    b.say`With ${percent(health.expected_progress)} of its period gone, it is ${health.verdict.replace('_', ' ')}${confidence === null ? '' : ` (latest confidence ${confidence})`}.`
  for (const kr of okr.key_results)
    b.say`Key result ${named(krSource(ctx, kr))} stands at ${kr.current} of ${amount(kr.target, kr.unit)} (${percent(keyResultProgress(kr))}).`
  const krs = new Map(okr.key_results.map((kr) => [kr.id, krSource(ctx, kr)]))
  const [latest, ...older] = checkins
  if (latest)
    sayCheckin(ctx, b, mentions, latest, krs.get(latest.key_result_id), 'The latest check-in: on')
  const project = mentions.ref(okr.project_visible ? okr.project_id : null)
  if (project) b.say`It supports project ${named(project)}.`
  for (const checkin of older)
    sayCheckin(ctx, b, mentions, checkin, krs.get(checkin.key_result_id), 'On')
  b.fact('session', okr.session)
    .fact('progress', okr.progress)
    .fact('key_results', okr.key_results.length)
    .fact('health', health?.verdict ?? null)
    .fact('confidence', confidence)
  if (latest) b.fact('last_checkin_at', latest.created_at.toISOString())
  b.link('owner', owner).link('team', team).link('project', project)
  return { type: 'okr', title: okr.title, builder: b }
}

/** A key result: where it stands against its start and target, and its latest check-ins. */
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
  const objective = mentions.ref(kr.objective_id)
  b.say`This key result${objective ? [' of objective ', named(objective)] : ''} stands at ${kr.current} of ${amount(kr.target, kr.unit)} (${percent(keyResultProgress(kr))}), from a start of ${kr.start}.`
  const [latest, ...older] = checkins
  if (latest) sayCheckin(ctx, b, mentions, latest, undefined, 'The latest check-in: on')
  for (const checkin of older) sayCheckin(ctx, b, mentions, checkin, undefined, 'On')
  b.fact('start', kr.start)
    .fact('target', kr.target)
    .fact('current', kr.current)
    .fact('unit', kr.unit)
    .fact('progress', keyResultProgress(kr))
  if (latest) b.fact('last_checkin_at', latest.created_at.toISOString())
  b.link('okr', objective)
  return { type: 'key_result', title: kr.title, builder: b }
}

/** A check-in: who logged what for which key result, with what confidence, and their note. */
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
  const krRef = kr ? krSource(ctx, kr) : undefined
  const objective = mentions.ref(checkin.objective_id)
  const author = mentions.ref(checkin.author_visible ? checkin.author_id : null)
  const confidence = checkin.confidence === null ? '' : ` with confidence ${checkin.confidence}`
  b.say`On ${day(checkin.created_at)}, ${author ? named(author) : 'someone'} logged ${checkin.value}${krRef ? [' for key result ', named(krRef)] : ''}${objective ? [' of objective ', named(objective)] : ''}${confidence}${quotedField({ id: checkin.id, updated_at: checkin.created_at.toISOString(), field: 'note' }, checkin.note, ', noting ')}.`
  if (kr)
    b.say`The key result now stands at ${kr.current} of ${amount(kr.target, kr.unit)} (${percent(keyResultProgress(kr))}).`
  b.fact('value', checkin.value).fact('confidence', checkin.confidence)
  b.link('key_result', krRef).link('okr', objective).link('author', author)
  return { type: 'checkin', title: `Check-in on ${kr?.title ?? 'a key result'}`, builder: b }
}

// One check-in in an objective's or key result's summary, citing the check-in.
function sayCheckin(
  ctx: SummaryContext,
  b: SummaryBuilder,
  mentions: Mentions,
  checkin: Checkin,
  kr: SourceRef | undefined,
  lead: string,
): void {
  const author = mentions.name(checkin.author_visible ? checkin.author_id : null)
  const confidence = checkin.confidence === null ? '' : ` with confidence ${checkin.confidence}`
  const title = `Check-in on ${kr?.title ?? 'a key result'}`
  // A check-in is never edited: its version is when it was logged.
  const ref = source(ctx, checkin.id, 'checkin', title, checkin.created_at)
  b.say`${lead} ${day(checkin.created_at)}, ${author ? quote(author) : 'someone'} logged ${checkin.value}${kr ? [' for ', quote(kr.title)] : ''}${confidence}${quotedField({ id: checkin.id, updated_at: checkin.created_at.toISOString(), field: 'note' }, checkin.note, ', noting ')}${marker(ref)}.`
}

import { listActivity } from '../../activity/activity.queries.ts'
import { listCanvases } from '../../graph/canvases/canvases.queries.ts'
import { okrHealth } from '../../graph/okrs/okr-health.ts'
import { listOkrs } from '../../graph/okrs/okrs.queries.ts'
import { listProjects } from '../../graph/projects/projects.queries.ts'
import { activityNeighbours, sayActivity } from '../../summaries/summary-activity.ts'
import {
  listing,
  named,
  quotedField,
  SummaryBuilder,
  type Value,
} from '../../summaries/summary-builder.ts'
import { Mentions, type Summarized, type SummaryContext } from '../../summaries/summary-context.ts'
import {
  type TaskLine,
  type TaskPick,
  taskStats,
  tasksToMention,
} from '../../summaries/summary-queries.ts'
import { taskDetails } from '../../summaries/task-mention.ts'

const LISTED = 3

/**
 * A project, what an agent needs first: status and owner, task counts, what is blocked, overdue
 * and due next, the latest activity; then its description, objectives, canvases, older activity.
 */
export async function summarizeProject(
  ctx: SummaryContext,
  id: string,
): Promise<Summarized | null> {
  const [project] = await listProjects(ctx.db, ctx.visibility, { ids: [id] }, null, 1)
  if (!project) return null
  const readable = (type: 'task' | 'canvas' | 'okr' | 'activity') =>
    ctx.readableKinds.includes(type)
  const scope = { projectId: id }
  const stats = readable('task') ? await taskStats(ctx.db, ctx.visibility, scope, ctx.today) : null
  const pick = (which: TaskPick) =>
    stats ? tasksToMention(ctx.db, ctx.visibility, scope, ctx.today, LISTED, which) : []
  const [blocked, overdue, next] = [
    await pick('blocked'),
    await pick('overdue'),
    await pick('next'),
  ]
  const canvases = readable('canvas')
    ? (
        await listCanvases(ctx.db, ctx.visibility, ctx.readableKinds, { project_id: id }, null, 5)
      ).slice(0, 5)
    : []
  const okrs = readable('okr')
    ? (await listOkrs(ctx.db, ctx.visibility, { project_id: id }, null, 5)).slice(0, 5)
    : []
  const recent = readable('activity')
    ? (
        await listActivity(ctx.db, ctx.visibility, ctx.readableKinds, { project_id: id }, null, 3)
      ).slice(0, 3)
    : []
  const tasks = [...blocked, ...overdue, ...next]
  const mentions = await Mentions.load(ctx, [
    project.owner_visible ? project.owner_id : null,
    ...tasks.flatMap((t) => [t.id, t.assignee_id]),
    ...canvases.map((c) => c.id),
    ...okrs.map((o) => o.id),
    ...recent.flatMap(activityNeighbours),
  ])
  const b = new SummaryBuilder()
  const owner = mentions.ref(project.owner_visible ? project.owner_id : null)
  const audience = project.visibility === 'workspace' ? 'the whole workspace' : 'its members only'
  b.say`This project is ${project.status} and visible to ${audience}${owner ? ['; its owner is ', named(owner)] : ''}.`
  if (stats)
    b.say`Of the tasks you can open, ${stats.open} are open (${stats.blocked} blocked, ${stats.overdue} overdue) and ${stats.done} done.`
  // A task in a list: its name, then what matters about it (due date, overdue, assignee), said
  // once; the list's label says its status.
  const described = new Set<string>()
  const line = (task: TaskLine): Value[] => {
    const ref = mentions.ref(task.id)
    if (!ref) return []
    const details = described.has(task.id)
      ? []
      : taskDetails(task, mentions, ctx.today, { status: false, assignee: true })
    described.add(task.id)
    return [named(ref), details]
  }
  const sayList = (label: string, list: TaskLine[], total: number) => {
    const items = list.map(line).filter((item) => item.length > 0)
    if (items.length === 0) return
    const more = total > items.length ? `, and ${total - items.length} more` : ''
    b.say`${label}: ${listing(items)}${more}.`
  }
  if (stats) {
    sayList('Blocked', blocked, stats.blocked)
    sayList('Overdue', overdue, stats.overdue)
    sayList('Due next', next, next.length)
  }
  const [latest, ...older] = recent
  if (latest) sayActivity(ctx, b, mentions, latest, 'The latest activity: on', id)
  if (project.description.trim())
    b.sayQuote`Its description says${quotedField({ id: project.id, updated_at: project.updated_at.toISOString(), field: 'description' }, project.description)}.`
  for (const okr of okrs) {
    const ref = mentions.ref(okr.id)
    // Its health beside its progress: whether 40 % is good news depends on how much of the
    // period is gone, the question a reader asks next.
    const confidence = okr.confidence === null ? null : Number(okr.confidence)
    const health = okrHealth(okr.progress, confidence, okr.session, new Date(ctx.today))
    const verdict = health ? `, ${health.verdict.replace('_', ' ')}` : ''
    if (ref)
      b.say`Objective ${named(ref)} (${okr.session}) is at ${Math.round(okr.progress * 100)}%${verdict}.`
  }
  const canvasRefs = canvases.flatMap((c) => mentions.ref(c.id) ?? [])
  if (canvasRefs.length > 0) b.say`Its canvases include ${listing(canvasRefs.map(named))}.`
  for (const entry of older) sayActivity(ctx, b, mentions, entry, 'On', id)
  b.fact('status', project.status)
    .fact('visibility', project.visibility)
    .fact('members', project.member_ids.length)
  if (stats)
    b.fact('open_tasks', stats.open)
      .fact('blocked_tasks', stats.blocked)
      .fact('overdue_tasks', stats.overdue)
      .fact('done_tasks', stats.done)
  if (latest) b.fact('last_activity_at', latest.created_at.toISOString())
  b.link('owner', owner)
  return { type: 'project', title: project.name, builder: b }
}

import { listActivity } from '../graph/activity/activity.queries.ts'
import { listCanvases } from '../graph/canvases/canvases.queries.ts'
import { listOkrs } from '../graph/okrs/okrs.queries.ts'
import { listProjects } from '../graph/projects/projects.queries.ts'
import type { Summarized } from './summarize-task.ts'
import { count, listing, quote, SummaryBuilder } from './summary-builder.ts'
import {
  activityWords,
  Mentions,
  type SummaryContext,
  source,
  verbWords,
} from './summary-context.ts'
import { taskStats, tasksToMention } from './summary-queries.ts'

/** A project: status, owner, open and overdue tasks, canvases, OKRs, recent activity. */
export async function summarizeProject(
  ctx: SummaryContext,
  id: string,
): Promise<Summarized | null> {
  const [project] = await listProjects(ctx.db, ctx.visibility, { ids: [id] }, null, 1)
  if (!project) return null
  const readable = (type: 'task' | 'canvas' | 'okr' | 'activity') =>
    ctx.readableTypes.includes(type)
  const stats = readable('task')
    ? await taskStats(ctx.db, ctx.visibility, { projectId: id }, ctx.today)
    : null
  const pressing = readable('task')
    ? (await tasksToMention(ctx.db, ctx.visibility, { projectId: id }, ctx.today, 5)).filter(
        (t) => t.status !== 'done',
      )
    : []
  const canvases = readable('canvas')
    ? await listCanvases(ctx.db, ctx.visibility, ctx.readableTypes, { project_id: id }, null, 5)
    : []
  const okrs = readable('okr')
    ? await listOkrs(ctx.db, ctx.visibility, { project_id: id }, null, 5)
    : []
  const recent = readable('activity')
    ? await listActivity(ctx.db, ctx.visibility, ctx.readableTypes, { project_id: id }, null, 3)
    : []
  const mentions = await Mentions.load(ctx, [
    project.owner_visible ? project.owner_id : null,
    ...pressing.flatMap((t) => [t.id, t.assignee_id]),
    ...canvases.map((c) => c.id),
    ...okrs.map((o) => o.id),
    ...recent.flatMap((a) => [a.actor_visible ? a.actor_id : null]),
  ])
  const self = (field: string, quoted?: string) =>
    source(ctx, id, 'project', project.name, field, quoted)
  const b = new SummaryBuilder()
  const owner = mentions.name(project.owner_visible ? project.owner_id : null)
  b.say(
    `Project ${quote(project.name)} is ${project.status} and visible to ${project.visibility === 'workspace' ? 'the whole workspace' : 'its members only'}${owner ? `; its owner is ${quote(owner)}` : ''}.`,
    self('status'),
  )
  if (project.description.trim())
    b.say(
      `Its description says ${quote(project.description)}.`,
      self('description', project.description),
    )
  if (stats)
    b.say(
      `It has ${count(stats.open, 'open task')} (${stats.overdue} overdue) and ${stats.done} done.`,
      self('tasks'),
    )
  for (const task of pressing.filter((t) => mentions.name(t.id))) {
    const assignee = mentions.name(task.assignee_id)
    const state =
      task.due && task.due < ctx.today
        ? `is overdue since ${task.due}`
        : task.due
          ? `is due ${task.due}`
          : 'is open'
    b.say(
      `Task ${quote(task.title)} ${state}${assignee ? `, assigned to ${quote(assignee)}` : ''}.`,
      mentions.cite(task.id, task.due ? 'due' : 'status'),
    )
  }
  if (canvases.length > 0)
    b.say(
      `Its canvases include ${listing(canvases.map((c) => quote(c.title)))}.`,
      ...canvases.map((c) => mentions.cite(c.id, 'title')),
    )
  for (const okr of okrs)
    b.say(
      `Objective ${quote(okr.title)} (${okr.session}) is at ${Math.round(okr.progress * 100)}%.`,
      mentions.cite(okr.id, 'progress'),
    )
  for (const entry of recent) {
    const actor = mentions.name(entry.actor_visible ? entry.actor_id : null)
    b.say(
      `On ${entry.created_at.toISOString().slice(0, 10)}, ${actor ? quote(actor) : 'someone'} ${activityWords(entry)}.`,
      source(
        ctx,
        entry.id,
        'activity',
        entry.subject_title ?? verbWords(entry.verb),
        'verb',
        entry.verb,
      ),
    )
  }
  b.fact('status', project.status)
    .fact('visibility', project.visibility)
    .fact('owner_id', owner ? project.owner_id : null)
    .fact('members', project.member_ids.length)
  if (stats)
    b.fact('open_tasks', stats.open)
      .fact('overdue_tasks', stats.overdue)
      .fact('done_tasks', stats.done)
  if (readable('canvas')) b.fact('canvases_shown', canvases.length)
  if (readable('okr')) b.fact('okrs_shown', okrs.length)
  if (recent[0]) b.fact('last_activity_at', recent[0].created_at.toISOString())
  mentions.link(b, 'owner', project.owner_id)
  for (const task of pressing) mentions.link(b, 'task', task.id)
  for (const canvas of canvases) mentions.link(b, 'canvas', canvas.id)
  for (const okr of okrs) mentions.link(b, 'okr', okr.id)
  return { type: 'project', title: project.name, builder: b }
}

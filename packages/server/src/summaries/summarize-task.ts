import { listActivity } from '../graph/activity/activity.queries.ts'
import { listComments } from '../graph/comments/comments.queries.ts'
import { listTasks } from '../graph/tasks/tasks.queries.ts'
import { count, listing, quote, SummaryBuilder } from './summary-builder.ts'
import { dueWords, Mentions, type SummaryContext, source } from './summary-context.ts'
import { taskStats, tasksToMention } from './summary-queries.ts'

/** What a summarizer returns: the subject and what was said about it. */
export interface Summarized {
  type: string
  title: string
  builder: SummaryBuilder
}

const STATUS_WORDS: Record<string, string> = {
  todo: 'to do',
  in_progress: 'in progress',
  blocked: 'blocked',
  done: 'done',
}

/** A task: status, due date, assignee, project and parent, subtasks, canvas, latest comments. */
export async function summarizeTask(ctx: SummaryContext, id: string): Promise<Summarized | null> {
  const [task] = await listTasks(ctx.db, ctx.visibility, { ids: [id] }, null, 1)
  if (!task) return null
  const done = task.status === 'done'
  const subtasks = await tasksToMention(ctx.db, ctx.visibility, { parentId: id }, ctx.today, 5)
  const stats = await taskStats(ctx.db, ctx.visibility, { parentId: id }, ctx.today)
  const comments = ctx.readableTypes.includes('comment')
    ? await listComments(ctx.db, ctx.visibility, { resource_id: id }, null, 200)
    : []
  const latest = comments.slice(-3).reverse()
  const mentions = await Mentions.load(ctx, [
    task.project_visible ? task.project_id : null,
    task.parent_visible ? task.parent_id : null,
    task.canvas_visible ? task.canvas_id : null,
    task.assignee_visible ? task.assignee_id : null,
    ...subtasks.map((s) => s.id),
    ...latest.map((c) => c.author_id),
  ])
  const self = source(ctx, id, 'task', task.title, 'status')
  const b = new SummaryBuilder()
  const assignee = mentions.name(task.assignee_visible ? task.assignee_id : null)
  b.say(
    `Task ${quote(task.title)} is ${STATUS_WORDS[task.status]} and ${dueWords(task.due, done, ctx.today)}${assignee ? `; it is assigned to ${quote(assignee)}` : task.assignee_id ? '' : '; it is not assigned'}.`,
    self,
  )
  const project = mentions.name(task.project_id)
  const parent = mentions.name(task.parent_id)
  if (project || parent) {
    const where = [
      project ? `belongs to project ${quote(project)}` : '',
      parent ? `is a subtask of ${quote(parent)}` : '',
    ]
      .filter(Boolean)
      .join(' and ')
    b.say(
      `It ${where}.`,
      ...[task.project_id, task.parent_id]
        .filter((ref): ref is string => !!ref && !!mentions.name(ref))
        .map((ref) => mentions.cite(ref, 'title')),
    )
  }
  if (task.description.trim())
    b.say(
      `Its description says ${quote(task.description)}.`,
      source(ctx, id, 'task', task.title, 'description', task.description),
    )
  const named = subtasks.filter((s) => mentions.name(s.id))
  if (stats.total > 0 && mentions.readable('task')) {
    const items = named.map((s) => `${quote(s.title)} (${STATUS_WORDS[s.status]})`)
    b.say(
      `It has ${count(stats.total, 'subtask')}, ${stats.done} done${items.length ? `: ${listing(items)}` : ''}.`,
      source(ctx, id, 'task', task.title, 'subtasks'),
      ...named.map((s) => mentions.cite(s.id, 'status')),
    )
  }
  const canvas = mentions.name(task.canvas_id)
  if (canvas && task.canvas_id)
    b.say(`It is planned on canvas ${quote(canvas)}.`, mentions.cite(task.canvas_id, 'title'))
  for (const comment of latest) {
    const author = mentions.name(comment.author_visible ? comment.author_id : null)
    b.say(
      `On ${comment.created_at.toISOString().slice(0, 10)}, ${author ? quote(author) : 'someone'} commented ${quote(comment.body)}.`,
      source(ctx, comment.id, 'comment', `Comment on ${task.title}`, 'body', comment.body),
    )
  }
  if (ctx.readableTypes.includes('activity')) {
    const [last] = await listActivity(
      ctx.db,
      ctx.visibility,
      ctx.readableTypes,
      { resource_id: id },
      null,
      1,
    )
    if (last) b.fact('last_activity_at', last.created_at.toISOString())
  }
  b.fact('status', task.status)
    .fact('due', task.due)
    .fact('overdue', !done && task.due !== null && task.due < ctx.today)
    .fact('assignee_id', assignee ? task.assignee_id : null)
    .fact('project_id', project ? task.project_id : null)
    .fact('parent_id', parent ? task.parent_id : null)
    .fact('subtasks', stats.total)
    .fact('subtasks_done', stats.done)
    .fact('comments', comments.length)
  mentions.link(b, 'project', task.project_id)
  mentions.link(b, 'parent', task.parent_id)
  mentions.link(b, 'canvas', task.canvas_id)
  mentions.link(b, 'assignee', task.assignee_id)
  for (const subtask of named) mentions.link(b, 'subtask', subtask.id)
  return { type: 'task', title: task.title, builder: b }
}

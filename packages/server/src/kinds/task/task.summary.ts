import { listActivity } from '../../activity/activity.queries.ts'
import { listComments } from '../../graph/comments/comments.queries.ts'
import { listTasks } from '../../graph/tasks/tasks.queries.ts'
import { isOverdue } from '../../lib/overdue.ts'
import {
  count,
  listing,
  marker,
  named,
  quote,
  quotedField,
  SummaryBuilder,
} from '../../summaries/summary-builder.ts'
import {
  day,
  dueWords,
  Mentions,
  type Summarized,
  type SummaryContext,
  source,
} from '../../summaries/summary-context.ts'
import { taskStats, tasksToMention } from '../../summaries/summary-queries.ts'
import { STATUS_WORDS, taskDetails } from '../../summaries/task-mention.ts'

/**
 * A task: status, due date and assignee first, then project and parent, the latest comment,
 * subtasks (each with its status, due date and assignee), description, canvas and older comments.
 */
export async function summarizeTask(ctx: SummaryContext, id: string): Promise<Summarized | null> {
  const [task] = await listTasks(ctx.db, ctx.visibility, { ids: [id] }, null, 1)
  if (!task) return null
  const done = task.status === 'done'
  const subtasks = await tasksToMention(ctx.db, ctx.visibility, { parentId: id }, ctx.today, 5)
  const stats = await taskStats(ctx.db, ctx.visibility, { parentId: id }, ctx.today)
  const comments = ctx.readableKinds.includes('comment')
    ? await listComments(ctx.db, ctx.visibility, { resource_id: id }, null, 200)
    : []
  const latest = comments.slice(-3).reverse()
  const mentions = await Mentions.load(ctx, [
    task.project_visible ? task.project_id : null,
    task.parent_visible ? task.parent_id : null,
    task.canvas_visible ? task.canvas_id : null,
    task.assignee_visible ? task.assignee_id : null,
    ...subtasks.flatMap((s) => [s.id, s.assignee_id]),
    ...latest.map((c) => (c.author_visible ? c.author_id : null)),
  ])
  const b = new SummaryBuilder()
  const assignee = mentions.ref(task.assignee_visible ? task.assignee_id : null)
  const assigned = assignee
    ? ['; it is assigned to ', named(assignee)]
    : task.assignee_id
      ? ''
      : '; it is not assigned'
  b.say`This task is ${STATUS_WORDS[task.status] ?? task.status} and ${dueWords(task.due, done, ctx.today)}${assigned}.`
  const project = mentions.ref(task.project_visible ? task.project_id : null)
  const parent = mentions.ref(task.parent_visible ? task.parent_id : null)
  if (project && parent)
    b.say`It belongs to project ${named(project)} and is a subtask of ${named(parent)}.`
  else if (project) b.say`It belongs to project ${named(project)}.`
  else if (parent) b.say`It is a subtask of ${named(parent)}.`
  const sayComment = (comment: (typeof comments)[number]) => {
    const author = mentions.name(comment.author_visible ? comment.author_id : null)
    const ref = source(ctx, comment.id, 'comment', `Comment on ${task.title}`, comment.updated_at)
    b.say`On ${day(comment.created_at)}, ${author ? quote(author) : 'someone'} commented${quotedField({ id: comment.id, updated_at: comment.updated_at.toISOString(), field: 'body' }, comment.body)}${marker(ref)}.`
  }
  if (latest[0]) sayComment(latest[0])
  if (stats.total > 0 && mentions.readable('task')) {
    const items = subtasks.flatMap((s) => {
      const ref = mentions.ref(s.id)
      return ref
        ? [[named(ref), taskDetails(s, mentions, ctx.today, { status: true, assignee: true })]]
        : []
    })
    b.say`It has ${count(stats.total, 'subtask')}, ${stats.done} done${items.length ? [': ', listing(items)] : ''}.`
  }
  if (task.description.trim())
    b.sayQuote`Its description says${quotedField({ id: task.id, updated_at: task.updated_at.toISOString(), field: 'description' }, task.description)}.`
  const canvas = mentions.ref(task.canvas_visible ? task.canvas_id : null)
  if (canvas) b.say`It is planned on canvas ${named(canvas)}.`
  for (const comment of latest.slice(1)) sayComment(comment)
  b.fact('status', task.status)
    .fact('due', task.due)
    .fact('overdue', isOverdue(task, ctx.today))
    .fact('subtasks', stats.total)
    .fact('subtasks_done', stats.done)
    .fact('comments', comments.length)
  if (ctx.readableKinds.includes('activity')) {
    const filter = { resource_id: id }
    const [last] = await listActivity(ctx.db, ctx.visibility, ctx.readableKinds, filter, null, 1)
    if (last) b.fact('last_activity_at', last.created_at.toISOString())
  }
  b.link('project', project).link('parent', parent).link('assignee', assignee)
  b.link('canvas', canvas)
  return { type: 'task', title: task.title, builder: b }
}

import { listCanvases } from '../../graph/canvases/canvases.queries.ts'
import { listing, named, quotedField, SummaryBuilder } from '../../summaries/summary-builder.ts'
import { Mentions, type Summarized, type SummaryContext } from '../../summaries/summary-context.ts'
import { taskStats, tasksToMention } from '../../summaries/summary-queries.ts'
import { taskDetails } from '../../summaries/task-mention.ts'

/**
 * A canvas: its project, audience and owner; the tasks planned on it; its summary; what it
 * links to.
 */
export async function summarizeCanvas(ctx: SummaryContext, id: string): Promise<Summarized | null> {
  const [canvas] = await listCanvases(
    ctx.db,
    ctx.visibility,
    ctx.readableKinds,
    { ids: [id] },
    null,
    1,
  )
  if (!canvas) return null
  const readsTasks = ctx.readableKinds.includes('task')
  const scope = { canvasId: id }
  const stats = readsTasks ? await taskStats(ctx.db, ctx.visibility, scope, ctx.today) : null
  const planned = readsTasks
    ? await tasksToMention(ctx.db, ctx.visibility, scope, ctx.today, 3)
    : []
  const mentions = await Mentions.load(ctx, [
    canvas.project_visible ? canvas.project_id : null,
    canvas.owner_visible ? canvas.owner_id : null,
    ...canvas.links,
    ...planned.flatMap((t) => [t.id, t.assignee_id]),
  ])
  const b = new SummaryBuilder()
  const project = mentions.ref(canvas.project_visible ? canvas.project_id : null)
  const owner = mentions.ref(canvas.owner_visible ? canvas.owner_id : null)
  const audience =
    canvas.visibility === 'private'
      ? 'its owner and the people it is shared with'
      : project
        ? 'whoever can open its project'
        : 'the whole workspace'
  b.say`This canvas${project ? [' in project ', named(project)] : ''} is visible to ${audience}${owner ? ['; its owner is ', named(owner)] : ''}.`
  if (stats && stats.total > 0) {
    const items = planned.flatMap((t) => {
      const ref = mentions.ref(t.id)
      return ref
        ? [[named(ref), taskDetails(t, mentions, ctx.today, { status: true, assignee: true })]]
        : []
    })
    b.say`${stats.total} ${stats.total === 1 ? 'task is' : 'tasks are'} planned on it, ${stats.open} open${items.length ? [', including ', listing(items)] : ''}.`
  }
  if (canvas.summary.trim())
    b.sayQuote`Its summary says${quotedField({ id: canvas.id, updated_at: canvas.updated_at.toISOString(), field: 'summary' }, canvas.summary, ' ', 600)}.`
  const linked = canvas.links.flatMap((link) => mentions.ref(link) ?? [])
  if (linked.length > 0) b.say`It links to ${listing(linked.map(named))}.`
  b.fact('visibility', canvas.visibility).fact('links', linked.length)
  if (stats) b.fact('tasks', stats.total).fact('open_tasks', stats.open)
  b.link('project', project).link('owner', owner)
  return { type: 'canvas', title: canvas.title, builder: b }
}

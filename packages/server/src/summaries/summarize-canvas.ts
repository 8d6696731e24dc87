import { listCanvases } from '../graph/canvases/canvases.queries.ts'
import type { Summarized } from './summarize-task.ts'
import { listing, quote, SummaryBuilder } from './summary-builder.ts'
import { Mentions, type SummaryContext, source } from './summary-context.ts'
import { taskStats } from './summary-queries.ts'

/** A canvas: its project and audience, its summary, what it links to, the tasks planned on it. */
export async function summarizeCanvas(ctx: SummaryContext, id: string): Promise<Summarized | null> {
  const [canvas] = await listCanvases(
    ctx.db,
    ctx.visibility,
    ctx.readableTypes,
    { ids: [id] },
    null,
    1,
  )
  if (!canvas) return null
  const stats = ctx.readableTypes.includes('task')
    ? await taskStats(ctx.db, ctx.visibility, { canvasId: id }, ctx.today)
    : null
  const mentions = await Mentions.load(ctx, [
    canvas.project_visible ? canvas.project_id : null,
    canvas.owner_visible ? canvas.owner_id : null,
    ...canvas.links,
  ])
  const b = new SummaryBuilder()
  const project = mentions.name(canvas.project_id)
  const owner = mentions.name(canvas.owner_id)
  const audience =
    canvas.visibility === 'private'
      ? 'its owner and the people it is shared with'
      : project
        ? 'whoever can open its project'
        : 'the whole workspace'
  b.say(
    `Canvas ${quote(canvas.title)}${project ? ` in project ${quote(project)}` : ''} is visible to ${audience}${owner ? `; its owner is ${quote(owner)}` : ''}.`,
    source(ctx, id, 'canvas', canvas.title, 'visibility'),
  )
  if (canvas.summary.trim())
    b.say(
      `Its summary says ${quote(canvas.summary, 600)}.`,
      source(ctx, id, 'canvas', canvas.title, 'summary', canvas.summary),
    )
  const linked = canvas.links.filter((link) => mentions.name(link))
  if (linked.length > 0)
    b.say(
      `It links to ${listing(linked.map((link) => quote(mentions.name(link) ?? '')))}.`,
      ...linked.map((link) => mentions.cite(link, 'title')),
    )
  if (stats && stats.total > 0)
    b.say(
      `${stats.total} task${stats.total === 1 ? ' is' : 's are'} planned on it, ${stats.open} open.`,
      source(ctx, id, 'canvas', canvas.title, 'tasks'),
    )
  b.fact('visibility', canvas.visibility)
    .fact('project_id', project ? canvas.project_id : null)
    .fact('owner_id', owner ? canvas.owner_id : null)
    .fact('links', linked.length)
  if (stats) b.fact('tasks', stats.total).fact('open_tasks', stats.open)
  mentions.link(b, 'project', canvas.project_id)
  mentions.link(b, 'owner', canvas.owner_id)
  for (const link of linked) mentions.link(b, 'link', link)
  return { type: 'canvas', title: canvas.title, builder: b }
}

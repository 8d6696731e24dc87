import { sql } from 'kysely'
import { listActivity } from '../graph/activity/activity.queries.ts'
import { listComments } from '../graph/comments/comments.queries.ts'
import { findWorkspace } from '../graph/workspace/workspace.queries.ts'
import type { Summarized } from './summarize-task.ts'
import { count, quote, SummaryBuilder } from './summary-builder.ts'
import {
  activityWords,
  Mentions,
  type SummaryContext,
  source,
  verbWords,
} from './summary-context.ts'

/** A comment: who wrote what on which resource, and how many replies it has. */
export async function summarizeComment(
  ctx: SummaryContext,
  id: string,
): Promise<Summarized | null> {
  const [comment] = await listComments(ctx.db, ctx.visibility, { ids: [id] }, null, 1)
  if (!comment) return null
  const replies = await sql<{ n: number }>`
    select count(*)::int as n from comments c
    join resource_index r on r.workspace_id = c.workspace_id and r.id = c.id
    where c.workspace_id = ${comment.workspace_id} and c.parent_id = ${id} and ${ctx.visibility.row('r')}`.execute(
    ctx.db,
  )
  const mentions = await Mentions.load(ctx, [
    comment.resource_id,
    comment.author_visible ? comment.author_id : null,
  ])
  const target = mentions.name(comment.resource_id)
  const author = mentions.name(comment.author_visible ? comment.author_id : null)
  const title = `Comment on ${target ?? 'a resource'}`
  const b = new SummaryBuilder()
  b.say(
    `On ${comment.created_at.toISOString().slice(0, 10)}, ${author ? quote(author) : 'someone'} commented${target ? ` on ${quote(target)}` : ''}: ${quote(comment.body, 1000)}.`,
    source(ctx, id, 'comment', title, 'body', comment.body),
  )
  const n = replies.rows[0]?.n ?? 0
  if (n > 0)
    b.say(`It has ${count(n, 'reply', 'replies')}.`, source(ctx, id, 'comment', title, 'replies'))
  b.fact('resource_id', target ? comment.resource_id : null)
    .fact('parent_id', comment.parent_id)
    .fact('replies', n)
  mentions.link(b, 'on', comment.resource_id)
  mentions.link(b, 'author', comment.author_id)
  return { type: 'comment', title, builder: b }
}

/** An activity entry: who did what to which resource, and what changed. */
export async function summarizeActivity(
  ctx: SummaryContext,
  id: string,
): Promise<Summarized | null> {
  const [entry] = await listActivity(
    ctx.db,
    ctx.visibility,
    ctx.readableTypes,
    { ids: [id] },
    null,
    1,
  )
  if (!entry) return null
  const mentions = await Mentions.load(ctx, [
    entry.subject_id,
    entry.actor_visible ? entry.actor_id : null,
  ])
  const actor = mentions.name(entry.actor_visible ? entry.actor_id : null)
  const b = new SummaryBuilder()
  const title =
    entry.subject_title === null
      ? verbWords(entry.verb)
      : `${verbWords(entry.verb)}: ${entry.subject_title}`
  b.say(
    `On ${entry.created_at.toISOString().slice(0, 10)}, ${actor ? quote(actor) : 'someone'} ${activityWords(entry)}.`,
    source(ctx, id, 'activity', title, 'verb', entry.verb),
  )
  for (const [field, change] of Object.entries(entry.changes)) {
    b.say(
      `${field} changed from ${quote(String(change.from ?? 'nothing'), 120)} to ${quote(String(change.to ?? 'nothing'), 120)}.`,
      source(ctx, id, 'activity', title, `changes.${field}`),
    )
  }
  b.fact('verb', entry.verb)
    .fact('subject_id', entry.subject_id)
    .fact('actor_id', actor ? entry.actor_id : null)
  mentions.link(b, 'subject', entry.subject_id)
  mentions.link(b, 'actor', entry.actor_id)
  return { type: 'activity', title, builder: b }
}

/** The workspace: its plan, and the people and projects the caller can see. */
export async function summarizeWorkspace(
  ctx: SummaryContext,
  id: string,
): Promise<Summarized | null> {
  if (id !== ctx.visibility.principal.workspaceId) return null
  const { workspace, memberCount } = await findWorkspace(ctx.db, ctx.visibility)
  const projects = await sql<{ status: string; n: number }>`
    select p.status, count(*)::int as n from projects p
    join resource_index r on r.workspace_id = p.workspace_id and r.id = p.id
    where p.workspace_id = ${id} and ${ctx.visibility.row('r')} group by p.status order by p.status`.execute(
    ctx.db,
  )
  const total = projects.rows.reduce((sum, row) => sum + row.n, 0)
  const active = projects.rows.find((row) => row.status === 'active')?.n ?? 0
  const b = new SummaryBuilder()
  const self = { id, url: ctx.urls.workspace(id).url, title: workspace.name, field: 'plan' }
  b.say(
    `Workspace ${quote(workspace.name)} is on the ${workspace.plan} plan; you can see ${count(memberCount, 'person', 'people')} and open ${count(total, 'project')}, ${active} of them active.`,
    self,
  )
  b.fact('plan', workspace.plan)
    .fact('people', memberCount)
    .fact('projects', total)
    .fact('active_projects', active)
  return { type: 'workspace', title: workspace.name, builder: b }
}

import { sql } from 'kysely'
import { listActivity } from '../activity/activity.queries.ts'
import { listComments } from '../graph/comments/comments.queries.ts'
import { findWorkspace } from '../graph/workspace/workspace.queries.ts'
import { activityTitle } from './summary-activity.ts'
import { count, listing, named, quoted, quotedField, SummaryBuilder } from './summary-builder.ts'
import {
  day,
  Mentions,
  type Summarized,
  type SummaryContext,
  verbWords,
} from './summary-context.ts'

/** A comment: who wrote what on which resource, what it replies to, how many replies it has. */
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
    comment.parent_id,
    comment.author_visible ? comment.author_id : null,
  ])
  const target = mentions.ref(comment.resource_id)
  const parent = mentions.ref(comment.parent_id)
  const author = mentions.ref(comment.author_visible ? comment.author_id : null)
  const b = new SummaryBuilder()
  b.say`On ${day(comment.created_at)}, ${author ? named(author) : 'someone'} ${parent ? 'replied in a thread' : 'commented'}${target ? [' on ', named(target)] : ''}${quotedField({ id: comment.id, updated_at: comment.updated_at.toISOString(), field: 'body' }, comment.body, ': ', 1000)}.`
  const n = replies.rows[0]?.n ?? 0
  if (n > 0) b.say`It has ${count(n, 'reply', 'replies')} you can see.`
  b.fact('replies', n).fact('is_reply', comment.parent_id !== null)
  b.link('on', target).link('reply_to', parent).link('author', author)
  return { type: 'comment', title: `Comment on ${target?.title ?? 'a resource'}`, builder: b }
}

/** An activity entry: who did what to which resource, and what changed. */
export async function summarizeActivity(
  ctx: SummaryContext,
  id: string,
): Promise<Summarized | null> {
  const filter = { ids: [id] }
  const [entry] = await listActivity(ctx.db, ctx.visibility, ctx.readableTypes, filter, null, 1)
  if (!entry) return null
  const mentions = await Mentions.load(ctx, [
    entry.subject_id,
    entry.actor_visible ? entry.actor_id : null,
  ])
  const actor = mentions.ref(entry.actor_visible ? entry.actor_id : null)
  // The subject is named only when the token may read its type (its title is null otherwise).
  const subject = entry.subject_title === null ? undefined : mentions.ref(entry.subject_id)
  const b = new SummaryBuilder()
  b.say`On ${day(entry.created_at)}, ${actor ? named(actor) : 'someone'} ${verbWords(entry.verb)}${subject ? [' ', named(subject)] : ''}.`
  for (const [field, change] of Object.entries(entry.changes)) {
    const from = quoted(String(change.from ?? 'nothing'), ' from ', 120)
    b.say`Its ${field.replace(/_/g, ' ')} changed${from}${quoted(String(change.to ?? 'nothing'), ' to ', 120)}.`
  }
  b.fact('verb', entry.verb).fact('changes', Object.keys(entry.changes).length)
  b.link('subject', subject).link('actor', actor)
  return { type: 'activity', title: activityTitle(entry), builder: b }
}

/** The workspace: its plan, the people and projects the caller can see, its active projects. */
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
  const readsProjects = ctx.readableTypes.includes('project')
  const recent = readsProjects
    ? await sql<{ id: string }>`
    select p.id from projects p
    join resource_index r on r.workspace_id = p.workspace_id and r.id = p.id
    where p.workspace_id = ${id} and p.status = 'active' and ${ctx.visibility.row('r')}
    order by p.updated_at desc, p.id limit 5`.execute(ctx.db)
    : { rows: [] }
  const mentions = await Mentions.load(
    ctx,
    recent.rows.map((row) => row.id),
  )
  const b = new SummaryBuilder()
  b.say`This workspace is on the ${workspace.plan} plan; you can see ${count(memberCount, 'person', 'people')} and open ${count(total, 'project')}, ${active} of them active.`
  const named5 = recent.rows.flatMap((row) => mentions.ref(row.id) ?? []).map(named)
  if (named5.length) b.say`Recently updated active projects: ${listing(named5)}.`
  b.fact('plan', workspace.plan)
    .fact('people', memberCount)
    .fact('projects', total)
    .fact('active_projects', active)
  return { type: 'workspace', title: workspace.name, builder: b }
}

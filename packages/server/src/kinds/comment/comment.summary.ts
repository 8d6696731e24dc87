import { sql } from 'kysely'
import { listComments } from '../../graph/comments/comments.queries.ts'
import { count, named, quotedField, SummaryBuilder } from '../../summaries/summary-builder.ts'
import {
  day,
  Mentions,
  type Summarized,
  type SummaryContext,
} from '../../summaries/summary-context.ts'

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

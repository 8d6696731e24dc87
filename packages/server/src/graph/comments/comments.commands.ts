import { sql } from 'kysely'
import type { Static } from 'typebox'
import { canOpen } from '../../access/visibility.ts'
import { actorRefVisible } from '../../access/visible-refs.ts'
import { notFound } from '../../api/problem-catalogue.ts'
import { requireVisible } from '../../api/require-visible.ts'
import { idKind, newId } from '../../lib/ids.ts'
import { requireText, ruleBroken } from '../../writes/business-rule.ts'
import { INSERTED_ROW, insertRecorded, type WriteContext } from '../../writes/write-context.ts'
import { presentComment } from './comments.present.ts'
import type { CommentRow } from './comments.queries.ts'
import type { CommentRecord, CreateCommentBody } from './comments.schemas.ts'

type Comment = Static<typeof CommentRecord>

const COMMENTABLE = new Set(['project', 'canvas', 'task', 'okr'])

/**
 * Adds a comment to a resource the caller may open, or a reply to a comment on it. The comment
 * is open to exactly those who may open the resource (the index copies the resource's row).
 */
export async function createComment(
  w: WriteContext,
  input: Static<typeof CreateCommentBody>,
): Promise<Comment> {
  const ws = w.principal.workspaceId
  const kind = idKind(input.resource_id) ?? ''
  if (!(await canOpen(w.trx, w.visibility, input.resource_id))) throw notFound('/resource_id')
  if (!COMMENTABLE.has(kind))
    throw ruleBroken(
      '/resource_id',
      'must be a project, canvas, task or OKR (to reply to a comment, give its resource and parent_id)',
    )
  requireText('/body', input.body)
  await requireVisible(w.trx, w.visibility, [['/parent_id', 'comment', input.parent_id]])
  if (input.parent_id) {
    const parent = await w.trx
      .selectFrom('comments')
      .select('resource_id')
      .where('workspace_id', '=', ws)
      .where('id', '=', input.parent_id)
      .executeTakeFirstOrThrow()
    if (parent.resource_id !== input.resource_id)
      throw ruleBroken('/parent_id', 'must be a comment on the same resource')
  }
  const resource = await w.trx
    .selectFrom('resource_index')
    .select('project_id')
    .where('workspace_id', '=', ws)
    .where('id', '=', input.resource_id)
    .executeTakeFirstOrThrow()
  const row = {
    workspace_id: ws,
    id: newId('comment'),
    resource_id: input.resource_id,
    parent_id: input.parent_id ?? null,
    author_id: w.principal.actorId,
    body: input.body,
    created_at: w.now,
    updated_at: w.now,
  }
  const { workspace_id: _, created_at: __, updated_at: ___, ...audited } = row
  // The answer is the new row as a list reads it; a comment is open to whoever may open what it is
  // on, which its author just did.
  const [created] = await insertRecorded(
    w,
    w.trx.insertInto('comments').values(row).returningAll(),
    {
      verb: 'comment.created',
      subjectId: row.id,
      subjectType: 'comment',
      projectId: resource.project_id,
      refs: [row.resource_id],
      audit: { resourceId: row.id, resourceType: 'comment', before: null, after: audited },
      eventObject: presentComment({ ...row, author_visible: true }, w.deps.urls),
    },
    sql<CommentRow>`select c.*, ${actorRefVisible(w.visibility, 'c.author_id')} as author_visible
      from ${sql.table(INSERTED_ROW)} c`,
  )
  if (!created) throw new Error(`comment ${row.id} was not inserted`)
  return presentComment(created, w.deps.urls)
}

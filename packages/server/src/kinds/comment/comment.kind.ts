import { sql } from 'kysely'
import type { IndexRows } from '../../access/resource-index.ts'
import type { KindDescriptor } from '../../catalogue/kind.ts'
import { KINDS } from '../../catalogue/kinds.ts'
import { presentComment } from '../../graph/comments/comments.present.ts'
import { listComments } from '../../graph/comments/comments.queries.ts'
import { commentRoutes } from '../../graph/comments/comments.routes.ts'
import { CommentRecord } from '../../graph/comments/comments.schemas.ts'
import type { LinkEdges } from '../../graph/links/link-edges.ts'
import { type ListByIds, recordFromList } from '../../graph/resources/load-record.ts'
import { pagePath } from '../../web/neighbour-names.ts'
import type { AnchoredPage } from '../../web/page-view.ts'
import type { Of } from '../../web/resource.view.ts'
import { summarizeComment } from './comment.summary.ts'

/**
 * A comment's row is exactly the row of what it is on: it reads those rows, so it is compiled
 * after them, and recompiling a resource recompiles the comments on it.
 */
const commentIndexRows: IndexRows = {
  titled: false,
  readsIndex: true,
  rows: (
    ws,
    ids,
    source = sql.table('comments'),
  ) => sql`select c.workspace_id, c.id, 'comment', t.project_id, '', c.body, t.ws_visible, t.acl,
           c.created_at, c.updated_at
    from ${source} c
    join resource_index t on t.workspace_id = c.workspace_id and t.id = c.resource_id
    where c.workspace_id = ${ws}
      ${ids === null ? sql`` : sql`and (c.id = any(${sql.val([...ids])}::text[]) or c.resource_id = any(${sql.val([...ids])}::text[]))`}`,
}

/** The comments among `ids` the caller may open: what its record reads. */
const byIds: ListByIds<Awaited<ReturnType<typeof listComments>>[number]> = (deps, caller, ids) =>
  listComments(deps.db, caller.visibility, { ids }, null, ids.length)

/** A comment as `GET /v1/resources/:id` returns it; null when the caller may not open it. */
const commentRecord = recordFromList(CommentRecord, byIds, (row, deps) =>
  presentComment(row, deps.urls),
)

/** The neighbours of a comment, as `(rel, rank, id)` rows. */
const commentLinks: LinkEdges = (ws, id) => sql`
    select 'on' as rel, 1 as rank, resource_id as id from comments where workspace_id = ${ws} and id = ${id}
    union all select 'reply_to', 2, parent_id from comments where workspace_id = ${ws} and id = ${id} and parent_id is not null
    union all select 'reply', 3, id from comments where workspace_id = ${ws} and parent_id = ${id}
    union all select 'author', 4, author_id from comments where workspace_id = ${ws} and id = ${id}`

/** A comment is shown on its resource's page, at its own anchor. */
const commentPage: AnchoredPage = {
  anchor: (record, ws) => `${pagePath(ws, (record as Of<'comment'>).resource_id)}#${record.id}`,
}

/** The comment kind: its catalogue data and the parts its consumers read. */
export const commentKind: KindDescriptor = {
  ...KINDS.comment,
  summarize: summarizeComment,
  index: commentIndexRows,
  record: commentRecord,
  links: commentLinks,
  page: commentPage,
  routes: commentRoutes,
  webhookEvents: {
    'comment.created': {
      title: 'CommentCreatedEvent',
      object: CommentRecord,
      about: 'A comment or reply was added.',
    },
  },
}

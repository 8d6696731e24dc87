import { presentComment } from '../../graph/comments/comments.present.ts'
import { listComments } from '../../graph/comments/comments.queries.ts'
import { CommentRecord } from '../../graph/comments/comments.schemas.ts'
import type { RecordPart } from '../../graph/resources/load-record.ts'

/** A comment as `GET /v1/resources/:id` returns it; null when the caller may not open it. */
export const commentRecord: RecordPart = {
  schema: CommentRecord,
  async load(deps, caller, id) {
    const { db, urls } = deps
    const { visibility } = caller
    const ids = [id]
    const [row] = await listComments(db, visibility, { ids }, null, 1)
    return row ? presentComment(row, urls) : null
  },
}

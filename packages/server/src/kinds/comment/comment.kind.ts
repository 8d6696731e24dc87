import type { KindDescriptor } from '../../catalogue/kind.ts'
import { KINDS } from '../../catalogue/kinds.ts'
import { commentIndexRows } from './comment.index.ts'
import { commentLinks } from './comment.links.ts'
import { commentPage } from './comment.page.ts'
import { commentRecord } from './comment.record.ts'
import { summarizeComment } from './comment.summary.ts'

/** The comment kind: its catalogue data and its parts. */
export const commentKind: KindDescriptor = {
  ...KINDS.comment,
  summarize: summarizeComment,
  index: commentIndexRows,
  record: commentRecord,
  links: commentLinks,
  page: commentPage,
}

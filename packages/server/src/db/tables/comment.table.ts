import type { DefaultTimestamp } from './columns.ts'

/** `comments`: threaded comments on any resource. */
export interface CommentsTable {
  workspace_id: string
  id: string
  resource_id: string
  parent_id: string | null
  author_id: string
  body: string
  created_at: DefaultTimestamp
  updated_at: DefaultTimestamp
}

import type { DateOnly, DefaultTimestamp, Timestamp } from './columns.ts'

/** `tasks`. */
export interface TasksTable {
  workspace_id: string
  id: string
  title: string
  description: string
  status: 'todo' | 'in_progress' | 'blocked' | 'done'
  due: DateOnly | null
  assignee_id: string | null
  parent_id: string | null
  project_id: string | null
  canvas_id: string | null
  creator_id: string
  completed_at: Timestamp | null
  created_at: DefaultTimestamp
  updated_at: DefaultTimestamp
}

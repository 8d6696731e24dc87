import { sql } from 'kysely'
import { syncResourceIndex } from '../../../src/access/resource-index.ts'
import type { Db } from '../../../src/db/database.ts'

/** Assigns a task to someone else (or no one); recompiles the task's ACL and its comments'. */
export async function reassignTask(
  db: Db,
  workspaceId: string,
  taskId: string,
  assigneeId: string | null,
  at: Date,
): Promise<void> {
  await db
    .updateTable('tasks')
    .set({ assignee_id: assigneeId, updated_at: at })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', taskId)
    .execute()
  await syncResourceIndex(db, workspaceId, { ids: [taskId] })
}

/**
 * Moves a top-level task and all its subtasks to another project (or none): a subtask's project
 * is always its parent's. Recompiles every moved task and the comments on them.
 */
export async function moveTask(
  db: Db,
  workspaceId: string,
  taskId: string,
  projectId: string | null,
  at: Date,
): Promise<void> {
  const task = await db
    .selectFrom('tasks')
    .select('parent_id')
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', taskId)
    .executeTakeFirst()
  if (task?.parent_id) throw new Error('a subtask moves with its parent')
  const moved = await sql<{ id: string }>`
    with recursive tree as (
      select id from tasks where workspace_id = ${workspaceId} and id = ${taskId}
      union all
      select t.id from tasks t join tree on t.parent_id = tree.id where t.workspace_id = ${workspaceId}
    )
    update tasks set project_id = ${projectId}, updated_at = ${at}
    where workspace_id = ${workspaceId} and id in (select id from tree)
    returning id`.execute(db)
  await syncResourceIndex(db, workspaceId, { ids: moved.rows.map((row) => row.id) })
}

import type { KindDescriptor } from '../../catalogue/kind.ts'
import { KINDS } from '../../catalogue/kinds.ts'
import type { RecordPart } from '../../graph/resources/load-record.ts'
import { presentWorkspace } from '../../graph/workspace/workspace.present.ts'
import { findWorkspace } from '../../graph/workspace/workspace.queries.ts'
import { workspaceRoutes } from '../../graph/workspace/workspace.routes.ts'
import { WorkspaceRecord } from '../../graph/workspace/workspace.schemas.ts'
import { summarizeWorkspace } from './workspace.summary.ts'

/** The workspace as `GET /v1/resources/:id` returns it; null when the caller may not open it. */
const workspaceRecord: RecordPart = {
  schema: WorkspaceRecord,
  async load(deps, caller, id) {
    const { db, urls } = deps
    const { visibility } = caller
    if (id !== visibility.principal.workspaceId) return null
    const { workspace, memberCount } = await findWorkspace(db, visibility)
    return presentWorkspace(workspace, memberCount, urls)
  },
}

/** The workspace kind: its catalogue data and the parts its consumers read. */
export const workspaceKind: KindDescriptor = {
  ...KINDS.workspace,
  summarize: summarizeWorkspace,
  record: workspaceRecord,
  routes: workspaceRoutes,
}

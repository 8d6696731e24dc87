import type { KindDescriptor } from '../../catalogue/kind.ts'
import { KINDS } from '../../catalogue/kinds.ts'
import { workspaceRecord } from './workspace.record.ts'
import { summarizeWorkspace } from './workspace.summary.ts'

/** The workspace kind: its catalogue data and its parts. */
export const workspaceKind: KindDescriptor = {
  ...KINDS.workspace,
  summarize: summarizeWorkspace,
  record: workspaceRecord,
}

import type { KindDescriptor } from '../../catalogue/kind.ts'
import { KINDS } from '../../catalogue/kinds.ts'
import { projectIndexRows } from './project.index.ts'
import { summarizeProject } from './project.summary.ts'

/** The project kind: its catalogue data and its parts. */
export const projectKind: KindDescriptor = {
  ...KINDS.project,
  summarize: summarizeProject,
  index: projectIndexRows,
}

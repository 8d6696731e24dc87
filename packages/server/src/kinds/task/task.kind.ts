import type { KindDescriptor } from '../../catalogue/kind.ts'
import { KINDS } from '../../catalogue/kinds.ts'
import { taskIndexRows } from './task.index.ts'
import { summarizeTask } from './task.summary.ts'

/** The task kind: its catalogue data and its parts. */
export const taskKind: KindDescriptor = {
  ...KINDS.task,
  summarize: summarizeTask,
  index: taskIndexRows,
}

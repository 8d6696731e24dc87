import type { KindDescriptor } from '../../catalogue/kind.ts'
import { KINDS } from '../../catalogue/kinds.ts'
import { listTasks } from '../../graph/tasks/tasks.queries.ts'
import { taskIndexRows } from './task.index.ts'
import { taskLinks } from './task.links.ts'
import { taskList } from './task.list.ts'
import { taskPage } from './task.page.ts'
import { taskRecord } from './task.record.ts'
import { summarizeTask } from './task.summary.ts'

/** The task kind: its catalogue data and its parts. */
export const taskKind: KindDescriptor = {
  ...KINDS.task,
  summarize: summarizeTask,
  index: taskIndexRows,
  list: taskList,
  record: taskRecord,
  links: taskLinks,
  page: taskPage,
  names: (deps, caller, ids) => listTasks(deps.db, caller.visibility, { ids }, null, ids.length),
}

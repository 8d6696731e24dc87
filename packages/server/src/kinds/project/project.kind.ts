import type { KindDescriptor } from '../../catalogue/kind.ts'
import { KINDS } from '../../catalogue/kinds.ts'
import { listProjects } from '../../graph/projects/projects.queries.ts'
import { projectIndexRows } from './project.index.ts'
import { projectLinks } from './project.links.ts'
import { projectList } from './project.list.ts'
import { projectPage } from './project.page.ts'
import { projectRecord } from './project.record.ts'
import { summarizeProject } from './project.summary.ts'

/** The project kind: its catalogue data and its parts. */
export const projectKind: KindDescriptor = {
  ...KINDS.project,
  summarize: summarizeProject,
  index: projectIndexRows,
  list: projectList,
  record: projectRecord,
  links: projectLinks,
  page: projectPage,
  names: (deps, caller, ids) => listProjects(deps.db, caller.visibility, { ids }, null, ids.length),
}

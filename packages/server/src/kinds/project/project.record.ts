import { presentProject } from '../../graph/projects/projects.present.ts'
import { listProjects } from '../../graph/projects/projects.queries.ts'
import { ProjectRecord } from '../../graph/projects/projects.schemas.ts'
import type { RecordPart } from '../../graph/resources/load-record.ts'

/** A project as `GET /v1/resources/:id` returns it; null when the caller may not open it. */
export const projectRecord: RecordPart = {
  schema: ProjectRecord,
  async load(deps, caller, id) {
    const { db, urls } = deps
    const { visibility } = caller
    const ids = [id]
    const [row] = await listProjects(db, visibility, { ids }, null, 1)
    return row ? presentProject(row, urls) : null
  },
}

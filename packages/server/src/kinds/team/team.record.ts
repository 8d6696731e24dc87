import { presentTeam } from '../../graph/people/people.present.ts'
import { listTeams } from '../../graph/people/people.queries.ts'
import { TeamRecord } from '../../graph/people/people.schemas.ts'
import type { RecordPart } from '../../graph/resources/load-record.ts'

/** A team as `GET /v1/resources/:id` returns it; null when the caller may not open it. */
export const teamRecord: RecordPart = {
  schema: TeamRecord,
  async load(deps, caller, id) {
    const { db, urls } = deps
    const { visibility } = caller
    const ids = [id]
    const [row] = await listTeams(db, visibility, { ids }, null, 1)
    return row ? presentTeam(row, urls) : null
  },
}

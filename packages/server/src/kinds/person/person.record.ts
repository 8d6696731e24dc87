import { presentPerson } from '../../graph/people/people.present.ts'
import { listPeople } from '../../graph/people/people.queries.ts'
import { PersonRecord } from '../../graph/people/people.schemas.ts'
import type { RecordPart } from '../../graph/resources/load-record.ts'

/** A person as `GET /v1/resources/:id` returns it; null when the caller may not open it. */
export const personRecord: RecordPart = {
  schema: PersonRecord,
  async load(deps, caller, id) {
    const { db, urls } = deps
    const { visibility } = caller
    const ids = [id]
    const [row] = await listPeople(db, visibility, { ids }, null, 1)
    return row ? presentPerson(row, visibility.principal.isMember, urls) : null
  },
}

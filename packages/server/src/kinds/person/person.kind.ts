import type { KindDescriptor } from '../../catalogue/kind.ts'
import { KINDS } from '../../catalogue/kinds.ts'
import { listPeople } from '../../graph/people/people.queries.ts'
import { personLinks } from './person.links.ts'
import { personList } from './person.list.ts'
import { personPage } from './person.page.ts'
import { personRecord } from './person.record.ts'
import { summarizePerson } from './person.summary.ts'

/** The person kind: its catalogue data and its parts. */
export const personKind: KindDescriptor = {
  ...KINDS.person,
  summarize: summarizePerson,
  list: personList,
  record: personRecord,
  links: personLinks,
  page: personPage,
  names: (deps, caller, ids) => listPeople(deps.db, caller.visibility, { ids }, null, ids.length),
}

import type { KindDescriptor } from '../../catalogue/kind.ts'
import { KINDS } from '../../catalogue/kinds.ts'
import { listTeams } from '../../graph/people/people.queries.ts'
import { teamLinks } from './team.links.ts'
import { teamList } from './team.list.ts'
import { teamPage } from './team.page.ts'
import { teamRecord } from './team.record.ts'
import { summarizeTeam } from './team.summary.ts'

/** The team kind: its catalogue data and its parts. */
export const teamKind: KindDescriptor = {
  ...KINDS.team,
  summarize: summarizeTeam,
  list: teamList,
  record: teamRecord,
  links: teamLinks,
  page: teamPage,
  names: (deps, caller, ids) => listTeams(deps.db, caller.visibility, { ids }, null, ids.length),
}

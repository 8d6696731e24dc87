import { sql } from 'kysely'
import type { KindDescriptor } from '../../catalogue/kind.ts'
import { KINDS } from '../../catalogue/kinds.ts'
import type { LinkEdges } from '../../graph/links/link-edges.ts'
import { presentTeam } from '../../graph/people/people.present.ts'
import { listTeams, namePosition } from '../../graph/people/people.queries.ts'
import { TeamRecord } from '../../graph/people/people.schemas.ts'
import { teamRoutes } from '../../graph/people/teams.routes.ts'
import { TeamMembership } from '../../graph/people/teams.schemas.ts'
import { type ListByIds, recordFromList } from '../../graph/resources/load-record.ts'
import { itemUrl, type ListSource } from '../../mcp/tools/list-source.ts'
import { teamPage } from './team.page.ts'
import { summarizeTeam } from './team.summary.ts'

/** The teams among `ids` the caller may open: what its record and page names read. */
const byIds: ListByIds<Awaited<ReturnType<typeof listTeams>>[number]> = (deps, caller, ids) =>
  listTeams(deps.db, caller.visibility, { ids }, null, ids.length)

/** A team as `GET /v1/resources/:id` returns it; null when the caller may not open it. */
const teamRecord = recordFromList(TeamRecord, byIds, (row, deps) => presentTeam(row, deps.urls))

/** The neighbours of a team, as `(rel, rank, id)` rows. */
const teamLinks: LinkEdges = (ws, id) => sql`
    select 'member' as rel, 1 as rank, person_id as id from team_members where workspace_id = ${ws} and team_id = ${id}
    union all select 'project', 2, project_id from project_members where workspace_id = ${ws} and team_id = ${id}`

/** How the MCP `list` tool reads teams: the query of their `/v1` list. */
const teamList: ListSource = {
  filters: [],
  references: () => [],
  async load(session, _filters, after, limit) {
    const rows = await listTeams(session.deps.db, session.caller.visibility, {}, after, limit)
    return rows.map((row) => ({
      id: row.id,
      type: 'team',
      title: row.name,
      url: itemUrl(session, 'team', row.id),
      facts: {},
      position: namePosition(row),
    }))
  },
}

/** The team kind: its catalogue data and the parts its consumers read. */
export const teamKind: KindDescriptor = {
  ...KINDS.team,
  summarize: summarizeTeam,
  list: teamList,
  record: teamRecord,
  links: teamLinks,
  page: teamPage,
  names: byIds,
  routes: teamRoutes,
  webhookEvents: {
    'team.created': { title: 'TeamCreatedEvent', object: TeamRecord, about: 'A team was made.' },
    'team.updated': { title: 'TeamUpdatedEvent', object: TeamRecord, about: 'A team was renamed.' },
    'team.member_added': {
      title: 'TeamMemberAddedEvent',
      object: TeamMembership,
      about: 'A person was added to a team, and opens what the team opens.',
    },
    'team.member_removed': {
      title: 'TeamMemberRemovedEvent',
      object: TeamMembership,
      about: 'A person was removed from a team.',
    },
  },
}

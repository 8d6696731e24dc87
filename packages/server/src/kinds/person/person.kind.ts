import { sql } from 'kysely'
import type { KindDescriptor } from '../../catalogue/kind.ts'
import { KINDS } from '../../catalogue/kinds.ts'
import type { KindRoutes } from '../../graph/kind-routes.ts'
import type { LinkEdges } from '../../graph/links/link-edges.ts'
import { invitationRoutes } from '../../graph/people/invitations.routes.ts'
import { InvitationRecord } from '../../graph/people/invitations.schemas.ts'
import { presentPerson } from '../../graph/people/people.present.ts'
import { listPeople, namePosition } from '../../graph/people/people.queries.ts'
import { peopleRoutes } from '../../graph/people/people.routes.ts'
import { PersonRecord } from '../../graph/people/people.schemas.ts'
import { peopleAdminRoutes } from '../../graph/people/people-admin.routes.ts'
import { type ListByIds, recordFromList } from '../../graph/resources/load-record.ts'
import { itemUrl, type ListSource } from '../../mcp/tools/list-source.ts'
import { personPage } from './person.page.ts'
import { summarizePerson } from './person.summary.ts'

/** The people among `ids` the caller may open: what its record and page names read. */
const byIds: ListByIds<Awaited<ReturnType<typeof listPeople>>[number]> = (deps, caller, ids) =>
  listPeople(deps.db, caller.visibility, { ids }, null, ids.length)

/** A person as `GET /v1/resources/:id` returns it; null when the caller may not open it. */
const personRecord = recordFromList(PersonRecord, byIds, (row, deps, caller) =>
  presentPerson(row, caller.visibility.principal.isMember, deps.urls),
)

/** The neighbours of a person, as `(rel, rank, id)` rows. */
const personLinks: LinkEdges = (ws, id) => sql`
    select 'team' as rel, 1 as rank, team_id as id from team_members where workspace_id = ${ws} and person_id = ${id}
    union all select 'project', 2, project_id from project_members where workspace_id = ${ws} and person_id = ${id}`

/** How the MCP `list` tool reads people: the query of their `/v1` list. */
const personList: ListSource = {
  filters: ['team_id'],
  references: (f) => [['/team_id', 'team', f.team_id]],
  async load(session, filters, after, limit) {
    const { db } = session.deps
    const rows = await listPeople(db, session.caller.visibility, filters, after, limit)
    return rows.map((row) => ({
      id: row.id,
      type: 'person',
      title: row.name,
      url: itemUrl(session, 'person', row.id),
      facts: { role: row.role },
      position: namePosition(row),
    }))
  },
}

/** The directory's routes, then the writes that shape it: invitations, roles, deactivation. */
const personRoutes: KindRoutes = (deps) => async (app) => {
  await app.register(peopleRoutes(deps))
  await app.register(invitationRoutes(deps))
  await app.register(peopleAdminRoutes(deps))
}

/** The person kind: its catalogue data and the parts its consumers read. */
export const personKind: KindDescriptor = {
  ...KINDS.person,
  summarize: summarizePerson,
  list: personList,
  record: personRecord,
  links: personLinks,
  page: personPage,
  names: byIds,
  routes: personRoutes,
  webhookEvents: {
    'person.invited': {
      title: 'PersonInvitedEvent',
      object: InvitationRecord,
      about:
        'An owner or admin invited someone (docs/api.md, "People"). Heard only by endpoints of owners and admins; the link is never in it.',
    },
    'person.joined': {
      title: 'PersonJoinedEvent',
      object: PersonRecord,
      about:
        "Someone accepted an invitation and is now a person of the workspace. `email` is null: an endpoint's owner may be a guest.",
    },
    'person.updated': {
      title: 'PersonUpdatedEvent',
      object: PersonRecord,
      about:
        "A person's role changed, or they were deactivated or reactivated (`previous_attributes` has `role` or `deactivated`). `email` is null.",
    },
  },
}

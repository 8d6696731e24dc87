import type { Static } from 'typebox'
import type { UrlBuilder } from '../../lib/resource-urls.ts'
import type { PersonRow, TeamRow } from './people.queries.ts'
import type { PersonRecord, TeamRecord } from './people.schemas.ts'

/**
 * A person as the API shows them. Emails are for members only: guests (outside collaborators)
 * and integrations see names, not addresses they could harvest.
 */
export function presentPerson(
  row: PersonRow,
  callerIsMember: boolean,
  urls: UrlBuilder,
): Static<typeof PersonRecord> {
  return {
    id: row.id,
    type: 'person',
    ...urls.resource(row.workspace_id, 'person', row.id),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    name: row.name,
    email: callerIsMember ? row.email : null,
    role: row.role,
    deactivated: row.deactivated_at !== null,
    teams: row.team_ids,
  }
}

/** A team as the API shows it, with the members the caller can see. */
export function presentTeam(row: TeamRow, urls: UrlBuilder): Static<typeof TeamRecord> {
  return {
    id: row.id,
    type: 'team',
    ...urls.resource(row.workspace_id, 'team', row.id),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    name: row.name,
    member_ids: row.member_ids,
  }
}

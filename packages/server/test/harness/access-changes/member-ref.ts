import { idKind } from '../../../src/lib/ids.ts'

/** A project member or canvas share, as the three columns that store it. */
export interface MemberColumns {
  person_id: string | null
  team_id: string | null
  integration_id: string | null
}

/** The columns for a principal id (`usr_…`, `team_…` or `itg_…`); null for any other id. */
export function memberColumns(principalId: string): MemberColumns | null {
  const kind = idKind(principalId)
  if (kind !== 'person' && kind !== 'team' && kind !== 'integration') return null
  return {
    person_id: kind === 'person' ? principalId : null,
    team_id: kind === 'team' ? principalId : null,
    integration_id: kind === 'integration' ? principalId : null,
  }
}

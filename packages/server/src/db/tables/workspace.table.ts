import type { ColumnType } from 'kysely'
import type { Computed, DefaultTimestamp, Generated } from './columns.ts'

/** `workspaces`: the top-level container. */
export interface WorkspacesTable {
  id: string
  name: string
  plan: string
  settings: Generated<Record<string, unknown>>
  acl_epoch: Generated<string>
  /** The email domain whose verified addresses at the identity provider join as members. */
  sso_email_domain: ColumnType<string | null, string | null | undefined, string | null>
  created_at: DefaultTimestamp
  updated_at: DefaultTimestamp
}

/** `people`: one member of one workspace, with a role. */
export interface PeopleTable {
  workspace_id: string
  id: string
  name: string
  email: string
  role: 'owner' | 'admin' | 'member' | 'guest'
  password_hash: string | null
  created_at: DefaultTimestamp
  updated_at: DefaultTimestamp
  /** When the person left the workspace: no sign-in, no working credential; null while active. */
  deactivated_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>
  /** The identity provider's issuer and subject the person is linked to; null until linked. */
  sso_issuer: ColumnType<string | null, string | null | undefined, string | null>
  sso_subject: ColumnType<string | null, string | null | undefined, string | null>
  /** Its searchable text: the name (as a title) and the role. */
  tsv: Computed<string>
}

/** `teams`. */
export interface TeamsTable {
  workspace_id: string
  id: string
  name: string
  created_at: DefaultTimestamp
  updated_at: DefaultTimestamp
  /** Its searchable text: the name (as a title) and the word "team". */
  tsv: Computed<string>
}

/** `team_members`: which people belong to which team. */
export interface TeamMembersTable {
  workspace_id: string
  team_id: string
  person_id: string
}

/** `integrations`: non-human principals that hold workspace tokens. */
export interface IntegrationsTable {
  workspace_id: string
  id: string
  name: string
  created_at: DefaultTimestamp
}

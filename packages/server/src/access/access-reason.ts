/** Why a resource is open to a principal; `via_id` names the resource or team it comes through. */
export type AccessReasonKind =
  | 'workspace_member'
  | 'self'
  | 'project_member'
  | 'collaborator'
  | 'team_member'
  | 'shared_with'
  | 'owner'
  | 'creator'
  | 'assignee'
  | 'objective_team'
  | 'parent'

/** Every kind, in the order reasons are listed. */
export const ACCESS_REASON_KINDS: readonly AccessReasonKind[] = [
  'workspace_member',
  'self',
  'project_member',
  'team_member',
  'collaborator',
  'shared_with',
  'owner',
  'creator',
  'assignee',
  'objective_team',
  'parent',
]

/** One reason a resource is open. */
export interface AccessReason {
  kind: AccessReasonKind
  via_id?: string
}

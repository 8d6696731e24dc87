/**
 * Canonical scopes and what each allows (docs/api.md, "Scopes"); the consent page shows these
 * texts.
 */
export const SCOPES = {
  'workspace:read': 'Read the workspace record',
  'people:read': 'Read the people and teams you can see',
  'people:write':
    'Invite people, change their roles, deactivate them, and manage teams (owners and admins only)',
  'project:read': 'Read and search the projects you can open',
  'project:write':
    'Create projects, change their details, status and visibility, and add or remove their members',
  'canvas:read': 'Read and search the canvases you can open',
  'canvas:create': 'Create canvases',
  'canvas:write': "Create canvases and edit canvases' title, summary and links",
  'task:read': 'Read and search the tasks you can open',
  'task:write': 'Create and complete tasks',
  'okr:read': 'Read and search objectives, key results and check-ins',
  'okr:checkin': 'Log OKR check-ins',
  'okr:write': 'Create, edit and close objectives and their key results',
  'comment:read': 'Read and search comments on what you can open',
  'comment:write': 'Add comments',
  'activity:read': 'Read and search the activity stream',
  'webhook:manage': 'Create, rotate and delete webhook endpoints and replay deliveries',
  'audit:read': "Read the workspace's audit log (owners and admins only)",
  'token:manage':
    'Create and rotate your API keys; list and revoke tokens (all of the workspace for owners and admins)',
} as const

/** One canonical scope. */
export type Scope = keyof typeof SCOPES

/** Scope names of the authentication reference, and what they stand for. */
export const SCOPE_ALIASES: Readonly<Record<string, readonly Scope[]>> = {
  'goal:read': ['okr:read'],
  'goal:write': ['okr:read', 'okr:checkin', 'okr:write'],
}

/**
 * Canonical scopes and what each allows (docs/api.md, "Scopes"); the consent page shows these
 * texts.
 */
export const SCOPES = {
  'workspace:read': 'Read the workspace record',
  'people:read': 'Read the people and teams you can see',
  'project:read': 'Read and search the projects you can open',
  'project:write': 'Reserved: create projects, change their status, invite members',
  'canvas:read': 'Read and search the canvases you can open',
  'canvas:create': 'Create canvases',
  'canvas:write': "Create canvases and edit canvases' title, summary and links",
  'task:read': 'Read and search the tasks you can open',
  'task:write': 'Create and complete tasks',
  'okr:read': 'Read and search objectives, key results and check-ins',
  'okr:checkin': 'Log OKR check-ins',
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
  'goal:write': ['okr:read', 'okr:checkin'],
}

// A scope that carries others with it.
const IMPLIED: Readonly<Partial<Record<Scope, readonly Scope[]>>> = {
  'canvas:write': ['canvas:create'],
}

/** True for a canonical scope name or an alias. */
export function isKnownScope(name: string): boolean {
  return Object.hasOwn(SCOPES, name) || Object.hasOwn(SCOPE_ALIASES, name)
}

/** The canonical scopes a list of granted names (aliases included) amounts to. */
export function expandScopes(names: readonly string[]): ReadonlySet<Scope> {
  const result = new Set<Scope>()
  const add = (scope: Scope) => {
    result.add(scope)
    for (const implied of IMPLIED[scope] ?? []) result.add(implied)
  }
  for (const name of names) {
    if (Object.hasOwn(SCOPES, name)) add(name as Scope)
    for (const scope of SCOPE_ALIASES[name] ?? []) add(scope)
  }
  return result
}

/** The required scopes that a grant lacks (empty when it has them all). */
export function missingScopes(granted: ReadonlySet<Scope>, required: readonly Scope[]): Scope[] {
  return required.filter((scope) => !granted.has(scope))
}

/**
 * The scope names of a credential about to be issued that its issuer does not hold, sorted; empty
 * when it may be issued. A name counts as held only when everything it stands for is (an alias,
 * or a scope that implies others). Every path that creates, rotates or re-issues a credential
 * applies this: no one obtains a secret with more than the token they act with.
 */
export function scopesBeyond(granted: ReadonlySet<Scope>, names: readonly string[]): string[] {
  return [...new Set(names)]
    .filter((name) => missingScopes(granted, [...expandScopes([name])]).length > 0)
    .sort()
}

/** Resource types a search hit, link or record can have, and the scope that reads each. */
export const READ_SCOPE_OF_TYPE = {
  project: 'project:read',
  canvas: 'canvas:read',
  task: 'task:read',
  okr: 'okr:read',
  comment: 'comment:read',
  activity: 'activity:read',
  person: 'people:read',
  team: 'people:read',
} as const satisfies Record<string, Scope>

/** A resource type with a read scope. */
export type ReadableType = keyof typeof READ_SCOPE_OF_TYPE

/** The resource types a token may read: links and search name only these. */
export function readableTypes(granted: ReadonlySet<Scope>): ReadableType[] {
  return (Object.keys(READ_SCOPE_OF_TYPE) as ReadableType[]).filter((type) =>
    granted.has(READ_SCOPE_OF_TYPE[type]),
  )
}

/** The read scope of each id kind that `GET /v1/resources/:id` (and its sub-routes) can open. */
export const READ_SCOPE_OF_ID_KIND = {
  workspace: 'workspace:read',
  person: 'people:read',
  team: 'people:read',
  project: 'project:read',
  canvas: 'canvas:read',
  task: 'task:read',
  objective: 'okr:read',
  keyResult: 'okr:read',
  checkin: 'okr:read',
  comment: 'comment:read',
  activity: 'activity:read',
} as const satisfies Record<string, Scope>

/** Scopes that depend on the kind of the `:id` path parameter. */
export interface ScopesByIdKind {
  readonly byIdKind: Readonly<Record<string, readonly Scope[]>>
}

/** Any one of these scopes admits the request; the handler checks finer (search, per type). */
export interface ScopesAnyOf {
  readonly anyOf: readonly Scope[]
}

/** How a route declares what it needs. */
export type ScopeRequirement = readonly Scope[] | ScopesByIdKind | ScopesAnyOf

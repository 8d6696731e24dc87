import { sql } from 'kysely'
import { kindNamed, kindOfId } from '../catalogue/catalogue.ts'
import type { Db } from '../db/database.ts'
import { idKind } from '../lib/ids.ts'
import { ACCESS_REASON_KINDS, type AccessReason } from './access-reason.ts'
import { personReasons, teamReasons } from './directory-reasons.ts'
import type { Principal } from './principal.ts'

/*
 * "Why can I see this" (docs/permissions.md, "Why a resource is open"). The reasons are read off
 * the same resource-index row that `Visibility.row` tests: `ws_visible` for a member, and each of
 * the principal's tokens that the row's `acl` holds. Each matching token is then named by the
 * source column that put it into the ACL (resource-index.ts): a task's creator or assignee, a
 * canvas's owner or shares, an objective's owner or team, a project's members. So a resource
 * has a reason exactly when `canOpen` opens it; there is no second copy of the rules here.
 */

/**
 * The reasons a kind gives for the ACL entries that name the principal itself rather than a
 * project it belongs to (its owner, its creator, those it is shared with), read off the source
 * columns that put each entry in the ACL. `own`: those entries; `holds`: whether a value is one.
 */
export type OwnReasons = (
  db: Db,
  principal: Principal,
  id: string,
  holds: (value: string | null) => boolean,
  own: readonly string[],
) => Promise<AccessReason[]>

declare module '../catalogue/kind.ts' {
  interface KindParts {
    /** Why the ACL entries naming the principal itself open it (`GET …/access`). */
    reasons: OwnReasons
  }
}

// Kinds whose reasons this module knows without the index: the parts of an objective, and the
// directory's people and teams.
const OPENED_OTHERWISE = new Set(['key_result', 'checkin', 'person', 'team'])

/** Whether a kind has access reasons: every kind opened per resource. */
export function hasAccessReasons(kind: string): boolean {
  return OPENED_OTHERWISE.has(kind) || kindNamed(kind)?.indexed === true
}

/**
 * Every reason that opens the resource to the principal, in a stable order; empty when it is not
 * open (unknown, of another workspace, hidden, or of a kind without reasons).
 */
export async function accessReasons(
  db: Db,
  principal: Principal,
  id: string,
): Promise<AccessReason[]> {
  const kind = kindOfId(id)?.name ?? null
  if (kind === 'key_result' || kind === 'checkin') return partReasons(db, principal, kind, id)
  if (kind === 'person') return sorted(await personReasons(db, principal, id))
  if (kind === 'team') return sorted(await teamReasons(db, principal, id))
  if (kind === null || !hasAccessReasons(kind)) return []
  const row = await db
    .selectFrom('resource_index')
    .select(['type', 'ws_visible', 'acl'])
    .where('workspace_id', '=', principal.workspaceId)
    .where('id', '=', id)
    .executeTakeFirst()
  if (!row) return []
  const reasons: AccessReason[] = []
  if (principal.isMember && row.ws_visible) reasons.push({ kind: 'workspace_member' })
  const mine = new Set(principal.tokens)
  const matched = row.acl.filter((token) => mine.has(token))
  if (row.type === 'comment')
    return reasons.length > 0 || matched.length > 0 ? commentReasons(db, principal, id) : []
  if (matched.length > 0) reasons.push(...(await classify(db, principal, id, matched)))
  return sorted(reasons)
}

/** A comment is open exactly when the resource it is on is: that resource is its one reason. */
async function commentReasons(db: Db, principal: Principal, id: string): Promise<AccessReason[]> {
  const comment = await db
    .selectFrom('comments')
    .select('resource_id')
    .where('workspace_id', '=', principal.workspaceId)
    .where('id', '=', id)
    .executeTakeFirst()
  return comment ? [{ kind: 'parent', via_id: comment.resource_id }] : []
}

/** A key result or check-in is open exactly when its objective is. */
async function partReasons(
  db: Db,
  principal: Principal,
  kind: 'key_result' | 'checkin',
  id: string,
): Promise<AccessReason[]> {
  const part = await db
    .selectFrom(kind === 'key_result' ? 'key_results' : 'checkins')
    .select('objective_id')
    .where('workspace_id', '=', principal.workspaceId)
    .where('id', '=', id)
    .executeTakeFirst()
  if (!part) return []
  const objective = await accessReasons(db, principal, part.objective_id)
  return objective.length > 0 ? [{ kind: 'parent', via_id: part.objective_id }] : []
}

/** Names each ACL entry the principal holds by the source column that put it there. */
async function classify(
  db: Db,
  principal: Principal,
  id: string,
  matched: readonly string[],
): Promise<AccessReason[]> {
  const reasons: AccessReason[] = []
  const projects = matched.filter((token) => idKind(token) === 'project')
  if (projects.length > 0) reasons.push(...(await membershipReasons(db, principal, projects)))
  const own = matched.filter((token) => idKind(token) !== 'project')
  if (own.length === 0) return reasons
  const holds = (value: string | null) => value !== null && own.includes(value)
  const kindsOwn = kindOfId(id)?.reasons
  if (kindsOwn) reasons.push(...(await kindsOwn(db, principal, id, holds, own)))
  return reasons
}

/**
 * A project id in the ACL opens the resource to those who belong to the project: directly
 * (`project_member` via the project) or through each of their teams that belongs to it
 * (`team_member` via the team).
 */
async function membershipReasons(
  db: Db,
  principal: Principal,
  projectIds: readonly string[],
): Promise<AccessReason[]> {
  const rows = await db
    .selectFrom('project_members')
    .select(['project_id', 'team_id'])
    .where('workspace_id', '=', principal.workspaceId)
    .where('project_id', 'in', projectIds)
    .where(
      'principal_id',
      '=',
      sql<string>`any(${sql.val([principal.actorId, ...principal.teamIds])}::text[])`,
    )
    .execute()
  return rows.map((row) =>
    row.team_id === null
      ? { kind: 'project_member', via_id: row.project_id }
      : { kind: 'team_member', via_id: row.team_id },
  )
}

/** Reasons in the order of ACCESS_REASON_KINDS, then by `via_id`, without repeats. */
function sorted(reasons: AccessReason[]): AccessReason[] {
  const seen = new Set<string>()
  const unique = reasons.filter((reason) => {
    const key = `${reason.kind} ${reason.via_id ?? ''}`
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
  const rank = (reason: AccessReason) => ACCESS_REASON_KINDS.indexOf(reason.kind)
  return unique.sort((a, b) => rank(a) - rank(b) || (a.via_id ?? '').localeCompare(b.via_id ?? ''))
}

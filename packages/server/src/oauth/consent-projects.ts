import { type Role, resolvePrincipal } from '../access/principal.ts'
import { openableIds, visibilityFor } from '../access/visibility.ts'
import type { Db } from '../db/database.ts'
import { projectChoices } from '../graph/projects/project-choices.ts'
import { idKind } from '../lib/ids.ts'

/*
 * Picking projects at consent (docs/oauth.md, "Picking projects"): an app that sends
 * `project_picker=1` has the person choose which of their projects it may open; every token of
 * the grant is then fenced to them (docs/permissions.md, "Fenced credentials").
 */

/** The person a consent is for, as the project choice needs them. */
export interface ConsentPerson {
  id: string
  workspace_id: string
  role: Role
}

/** The most projects one grant may be fenced to, as for an API key. */
export const MOST_PICKED_PROJECTS = 100

/** The projects the person can open now, by name: the choices of the consent page. */
export async function projectsToPick(
  db: Db,
  person: ConsentPerson,
): Promise<{ id: string; name: string }[]> {
  return projectChoices(db, visibilityFor(await resolvePrincipal(db, actorOf(person))))
}

/**
 * The projects picked on the form, if every one is a project the person can open now and there
 * are 1 to 100 of them; else null (a form no honest page sends, or nothing picked).
 */
export async function pickedProjects(
  db: Db,
  person: ConsentPerson,
  picked: readonly string[],
): Promise<string[] | null> {
  const ids = [...new Set(picked)]
  if (ids.length === 0 || ids.length > MOST_PICKED_PROJECTS) return null
  if (ids.some((id) => idKind(id) !== 'project')) return null
  const visibility = visibilityFor(await resolvePrincipal(db, actorOf(person)))
  const open = await openableIds(db, visibility, ids)
  return ids.every((id) => open.has(id)) ? ids.sort() : null
}

/** The fence a grant holds now (null: not fenced, or no such grant). */
export async function fenceOfGrant(db: Db, grantId: string | undefined): Promise<string[] | null> {
  if (!grantId) return null
  const row = await db
    .selectFrom('oauth_artifacts')
    .select('project_ids')
    .where('model', '=', 'Grant')
    .where('grant_id', '=', grantId)
    .executeTakeFirst()
  return row?.project_ids ?? null
}

/** Fences every token of a grant, those issued and those to come, to the picked projects. */
export async function fenceGrant(db: Db, grantId: string, projectIds: readonly string[]) {
  await db
    .updateTable('oauth_artifacts')
    .set({ project_ids: [...projectIds] })
    .where('model', '=', 'Grant')
    .where('grant_id', '=', grantId)
    .execute()
}

function actorOf(person: ConsentPerson) {
  return {
    workspaceId: person.workspace_id,
    actorId: person.id,
    actorKind: 'person' as const,
    role: person.role,
  }
}

import { sql } from 'kysely'
import type { Static } from 'typebox'
import { teamChangeRefusal } from '../../access/directory-stewards.ts'
import { bumpAclEpoch } from '../../access/resource-index.ts'
import { canOpen } from '../../access/visibility.ts'
import { namedReference } from '../../api/named-reference.ts'
import { notFound, ProblemError } from '../../api/problem-catalogue.ts'
import { requireVisible } from '../../api/require-visible.ts'
import { idKind, newId } from '../../lib/ids.ts'
import { requireText } from '../../writes/business-rule.ts'
import { recordDirectoryChange } from '../../writes/directory-change.ts'
import type { WriteContext } from '../../writes/write-context.ts'
import { presentTeam } from './people.present.ts'
import { listTeams } from './people.queries.ts'
import type { TeamRecord } from './people.schemas.ts'
import type { AddTeamMemberBody, CreateTeamBody } from './teams.schemas.ts'

type Team = Static<typeof TeamRecord>

/**
 * Creates a team, with its first members. Team names are unique in a workspace, ignoring case,
 * since a team may be named wherever its id is asked for.
 */
export async function createTeam(
  w: WriteContext,
  body: Static<typeof CreateTeamBody>,
): Promise<Team> {
  requireTeamSteward(w)
  requireText('/name', body.name)
  const ws = w.principal.workspaceId
  const name = body.name.trim()
  const members: string[] = []
  for (const [i, given] of (body.member_ids ?? []).entries()) {
    const path = `/member_ids/${i}`
    const person = await namedReference(w.trx, w, 'person', given, path)
    await requireVisible(w.trx, w.visibility, [[path, 'person', person]])
    if (!members.includes(person)) members.push(person)
  }
  await requireUnusedName(w, name)
  const team = { workspace_id: ws, id: newId('team'), name, created_at: w.now, updated_at: w.now }
  await w.trx.insertInto('teams').values(team).execute()
  if (members.length > 0)
    await w.trx
      .insertInto('team_members')
      .values(members.map((person_id) => ({ workspace_id: ws, team_id: team.id, person_id })))
      .execute()
  await bumpAclEpoch(w.trx, ws)
  const record = await teamFor(w, team.id)
  await recordDirectoryChange(w, {
    verb: 'team.created',
    subjectId: team.id,
    subjectType: 'team',
    audit: {
      resourceId: team.id,
      resourceType: 'team',
      before: null,
      after: { name, member_ids: members },
    },
    eventObject: record,
  })
  return record
}

/** Renames a team; the same name again changes nothing and records nothing. */
export async function renameTeam(w: WriteContext, teamId: string, name: string): Promise<Team> {
  const before = await openTeam(w, teamId)
  requireTeamSteward(w)
  requireText('/name', name)
  const after = name.trim()
  if (after === before.name) return teamFor(w, teamId)
  if (after.toLowerCase() !== before.name.toLowerCase()) await requireUnusedName(w, after)
  await w.trx
    .updateTable('teams')
    .set({ name: after, updated_at: w.now })
    .where('workspace_id', '=', w.principal.workspaceId)
    .where('id', '=', teamId)
    .execute()
  const record = await teamFor(w, teamId)
  await recordDirectoryChange(w, {
    verb: 'team.updated',
    subjectId: teamId,
    subjectType: 'team',
    changes: { name: { from: before.name, to: after } },
    audit: {
      resourceId: teamId,
      resourceType: 'team',
      before: { name: before.name },
      after: { name: after },
    },
    eventObject: record,
  })
  return record
}

/**
 * Adds a person to a team: they open what the team opens on the very next request. Adding a
 * member again changes nothing and records nothing.
 */
export async function addTeamMember(
  w: WriteContext,
  teamId: string,
  body: Static<typeof AddTeamMemberBody>,
): Promise<Team> {
  await openTeam(w, teamId)
  const person = await namedReference(w.trx, w, 'person', body.person_id, '/person_id')
  await requireVisible(w.trx, w.visibility, [['/person_id', 'person', person]])
  requireTeamSteward(w)
  const ws = w.principal.workspaceId
  const added = await w.trx
    .insertInto('team_members')
    .values({ workspace_id: ws, team_id: teamId, person_id: person })
    .onConflict((conflict) => conflict.doNothing())
    .returning('person_id')
    .execute()
  if (added.length === 0) return teamFor(w, teamId)
  await recordTeamMembership(w, teamId, person, 'added')
  return teamFor(w, teamId)
}

/** Removes a person from a team; one who is not in it is the 404 of an unknown member. */
export async function removeTeamMember(
  w: WriteContext,
  teamId: string,
  personId: string,
): Promise<Team> {
  await openTeam(w, teamId)
  await requireVisible(w.trx, w.visibility, [['/person_id', 'person', personId]])
  requireTeamSteward(w)
  const removed = await w.trx
    .deleteFrom('team_members')
    .where('workspace_id', '=', w.principal.workspaceId)
    .where('team_id', '=', teamId)
    .where('person_id', '=', personId)
    .returning('person_id')
    .execute()
  if (removed.length === 0) throw notFound('/person_id')
  await recordTeamMembership(w, teamId, personId, 'removed')
  return teamFor(w, teamId)
}

// The team's row when the caller may see it; the one 404 otherwise, before any rule is asked.
async function openTeam(w: WriteContext, teamId: string): Promise<{ name: string }> {
  if (idKind(teamId) !== 'team' || !(await canOpen(w.trx, w.visibility, teamId))) throw notFound()
  return w.trx
    .selectFrom('teams')
    .select('name')
    .where('workspace_id', '=', w.principal.workspaceId)
    .where('id', '=', teamId)
    .forUpdate()
    .executeTakeFirstOrThrow()
}

function requireTeamSteward(w: WriteContext): void {
  const refusal = teamChangeRefusal(w.principal)
  if (refusal) throw new ProblemError('forbidden', refusal)
}

async function requireUnusedName(w: WriteContext, name: string): Promise<void> {
  const taken = await w.trx
    .selectFrom('teams')
    .select('id')
    .where('workspace_id', '=', w.principal.workspaceId)
    .where(sql<boolean>`lower(name) = lower(${name})`)
    .executeTakeFirst()
  if (taken)
    throw new ProblemError('conflict', `A team named "${name}" already exists.`, {
      errors: [{ path: '/name', message: 'is the name of another team' }],
    })
}

async function recordTeamMembership(
  w: WriteContext,
  teamId: string,
  personId: string,
  how: 'added' | 'removed',
): Promise<void> {
  await bumpAclEpoch(w.trx, w.principal.workspaceId)
  const membership = { team_id: teamId, person_id: personId }
  await recordDirectoryChange(w, {
    verb: how === 'added' ? 'team.member_added' : 'team.member_removed',
    subjectId: teamId,
    subjectType: 'team',
    // The person is shown to each reader only as far as it may see them (changed-people.ts).
    changes: {
      member: how === 'added' ? { from: null, to: personId } : { from: personId, to: null },
    },
    audit: {
      resourceId: teamId,
      resourceType: 'team',
      before: how === 'added' ? null : membership,
      after: how === 'added' ? membership : null,
    },
    eventObject: { type: 'team_membership', ...membership },
  })
}

// Teams are seen by every member, and only owners and admins change them, so the writer's own
// view of the team is the whole team.
async function teamFor(w: WriteContext, teamId: string): Promise<Team> {
  const [row] = await listTeams(w.trx, w.visibility, { ids: [teamId] }, null, 1)
  if (!row) throw new Error(`team ${teamId} is not visible to its writer`)
  return presentTeam(row, w.deps.urls)
}

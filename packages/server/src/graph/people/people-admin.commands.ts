import type { Static } from 'typebox'
import type { Role } from '../../access/principal.ts'
import { bumpAclEpoch } from '../../access/resource-index.ts'
import { ProblemError } from '../../api/problem-catalogue.ts'
import { recordDirectoryChange } from '../../writes/directory-change.ts'
import type { WriteContext } from '../../writes/write-context.ts'
import { presentPerson } from './people.present.ts'
import { listPeople } from './people.queries.ts'
import type { PersonRecord } from './people.schemas.ts'
import {
  keepAnOwner,
  lockDirectory,
  requireAdministrator,
  requireOwnerFor,
  type TargetPerson,
  targetPerson,
} from './people-admin.rules.ts'
import { endCredentialsOf } from './person-credentials.ts'

type Person = Static<typeof PersonRecord>

const ADMINISTERING: readonly Role[] = ['owner', 'admin']

// The person as the caller sees them now, and as events carry them: without the email, which
// reaches every endpoint whose owner may see the person, guests included.
async function personNow(w: WriteContext, id: string): Promise<{ answer: Person; event: Person }> {
  const [row] = await listPeople(w.trx, w.visibility, { ids: [id] }, null, 1)
  if (!row) throw new Error(`${id} vanished inside its own change`)
  return {
    answer: presentPerson(row, w.principal.isMember, w.deps.urls),
    event: presentPerson(row, false, w.deps.urls),
  }
}

/**
 * Changes a person's role (`PATCH /v1/people/:id`). Owners and admins only; only an owner grants
 * or takes away `owner` or `admin`; the last active owner keeps the role. The ACL epoch moves in
 * the same transaction, so the person's next request reads with the new role. The same role
 * changes nothing and records nothing.
 */
export async function changeRole(w: WriteContext, id: string, role: Role): Promise<Person> {
  const ws = w.principal.workspaceId
  requireAdministrator(w.principal)
  await lockDirectory(w.trx, ws)
  const target = await targetPerson(w, id)
  if (target.deactivated_at)
    throw new ProblemError('conflict', 'This person is deactivated: reactivate them first.')
  if (target.role === role) return (await personNow(w, id)).answer
  if (ADMINISTERING.includes(target.role) || ADMINISTERING.includes(role))
    requireOwnerFor(w.principal, 'grant or take away the owner and admin roles')
  if (target.role === 'owner') await keepAnOwner(w.trx, ws, 'change this role')
  await w.trx
    .updateTable('people')
    .set({ role, updated_at: w.now })
    .where('workspace_id', '=', ws)
    .where('id', '=', id)
    .execute()
  await bumpAclEpoch(w.trx, ws)
  const person = await personNow(w, id)
  await recordDirectoryChange(w, {
    verb: 'person.updated',
    subjectId: id,
    subjectType: 'person',
    changes: { role: { from: target.role, to: role } },
    audit: {
      resourceId: id,
      resourceType: 'person',
      before: { role: target.role },
      after: { role },
    },
    eventObject: person.event,
  })
  return person.answer
}

// Who may deactivate or reactivate `target`: an admin never an owner, nobody the last owner.
async function mayEnd(w: WriteContext, target: TargetPerson, doing: string): Promise<void> {
  if (target.role === 'owner') {
    requireOwnerFor(w.principal, `${doing} an owner`)
    await keepAnOwner(w.trx, w.principal.workspaceId, `${doing} this one`)
  }
}

/**
 * Deactivates a person (`POST /v1/people/:id/deactivate`): in this one transaction they are
 * marked, every session, key, grant and endpoint binding of theirs ends (person-credentials.ts)
 * and the ACL epoch moves. What they wrote stays, attributed to them; they stay in people lists,
 * marked `deactivated`. Deactivating someone already deactivated changes nothing.
 */
export async function deactivatePerson(w: WriteContext, id: string): Promise<Person> {
  const ws = w.principal.workspaceId
  requireAdministrator(w.principal)
  await lockDirectory(w.trx, ws)
  const target = await targetPerson(w, id)
  if (target.deactivated_at) return (await personNow(w, id)).answer
  await mayEnd(w, target, 'deactivate')
  await w.trx
    .updateTable('people')
    .set({ deactivated_at: w.now, updated_at: w.now })
    .where('workspace_id', '=', ws)
    .where('id', '=', id)
    .execute()
  await endCredentialsOf(w.trx, w.actor, id, w.now)
  await bumpAclEpoch(w.trx, ws)
  return recordActive(w, id, false)
}

/**
 * Reactivates a deactivated person (`POST /v1/people/:id/reactivate`): they may sign in again
 * with their password. Nothing that deactivation ended comes back: keys, app grants and
 * endpoints are made anew. Bringing back an owner or an admin is an owner's decision.
 */
export async function reactivatePerson(w: WriteContext, id: string): Promise<Person> {
  const ws = w.principal.workspaceId
  requireAdministrator(w.principal)
  await lockDirectory(w.trx, ws)
  const target = await targetPerson(w, id)
  if (!target.deactivated_at) return (await personNow(w, id)).answer
  if (ADMINISTERING.includes(target.role))
    requireOwnerFor(w.principal, 'reactivate an owner or an admin')
  await w.trx
    .updateTable('people')
    .set({ deactivated_at: null, updated_at: w.now })
    .where('workspace_id', '=', ws)
    .where('id', '=', id)
    .execute()
  await bumpAclEpoch(w.trx, ws)
  return recordActive(w, id, true)
}

// Records `person.updated` for a change of `deactivated`, and answers the person.
async function recordActive(w: WriteContext, id: string, active: boolean): Promise<Person> {
  const person = await personNow(w, id)
  await recordDirectoryChange(w, {
    verb: 'person.updated',
    subjectId: id,
    subjectType: 'person',
    changes: { deactivated: { from: active, to: !active } },
    audit: {
      resourceId: id,
      resourceType: 'person',
      before: { deactivated: active },
      after: { deactivated: !active },
    },
    eventObject: person.event,
  })
  return person.answer
}

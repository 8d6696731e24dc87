import { canAdminister } from '../../access/administration.ts'
import type { Principal } from '../../access/principal.ts'
import { notFound, ProblemError } from '../../api/problem-catalogue.ts'
import type { Db } from '../../db/database.ts'
import type { WriteContext } from '../../writes/write-context.ts'

/*
 * The rules shared by the writes that shape who is in a workspace (docs/permissions.md,
 * "Administering people"): invitations, roles, deactivation.
 */

/**
 * Refuses (403 `forbidden`) anyone who does not administer the workspace, and a credential fenced
 * to projects: who belongs and with which role decides what everyone may open, so a key meant to
 * reach a few projects must not be able to widen anyone's reach.
 */
export function requireAdministrator(principal: Principal): void {
  if (!canAdminister(principal))
    throw new ProblemError(
      'forbidden',
      "Only the workspace's owners and admins invite people, change roles and deactivate people.",
    )
  if (principal.fence !== null)
    throw new ProblemError(
      'forbidden',
      'A credential fenced to projects cannot invite people, change roles or deactivate people.',
    )
}

/** Refuses (403 `forbidden`) a change to the owner or admin roles by anyone but an owner. */
export function requireOwnerFor(principal: Principal, doing: string): void {
  if (principal.role !== 'owner') throw new ProblemError('forbidden', `Only an owner may ${doing}.`)
}

/**
 * Locks the workspace's row for the rest of the transaction: changes to its people run one after
 * another, so two owners demoting each other at once cannot leave it without an owner, and two
 * invitations of one email cannot both pass the check for a pending one.
 */
export async function lockDirectory(trx: Db, workspaceId: string): Promise<void> {
  await trx
    .selectFrom('workspaces')
    .select('id')
    .where('id', '=', workspaceId)
    .forUpdate()
    .execute()
}

/** The workspace's owners who are not deactivated. */
export async function activeOwnerCount(trx: Db, workspaceId: string): Promise<number> {
  const row = await trx
    .selectFrom('people')
    .select((eb) => eb.fn.countAll<string>().as('owners'))
    .where('workspace_id', '=', workspaceId)
    .where('role', '=', 'owner')
    .where('deactivated_at', 'is', null)
    .executeTakeFirstOrThrow()
  return Number(row.owners)
}

/** A person a write changes: their role and whether they left. */
export interface TargetPerson {
  id: string
  role: 'owner' | 'admin' | 'member' | 'guest'
  deactivated_at: Date | null
}

/**
 * The person `id` names, if the caller may see them; else the 404 of an unknown id (a hidden
 * person answers exactly as one who does not exist).
 */
export async function targetPerson(w: WriteContext, id: string): Promise<TargetPerson> {
  const row = await w.trx
    .selectFrom('people as p')
    .select(['p.id', 'p.role', 'p.deactivated_at'])
    .where('p.workspace_id', '=', w.principal.workspaceId)
    .where('p.id', '=', id)
    .where(w.visibility.person())
    .executeTakeFirst()
  if (!row) throw notFound()
  return row
}

/** Refuses (409 `conflict`) a change that would leave the workspace without an active owner. */
export async function keepAnOwner(trx: Db, workspaceId: string, doing: string): Promise<void> {
  if ((await activeOwnerCount(trx, workspaceId)) <= 1)
    throw new ProblemError(
      'conflict',
      `This is the workspace's last owner: make someone else an owner before you ${doing}.`,
    )
}

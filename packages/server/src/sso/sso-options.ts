import { sql } from 'kysely'
import type { Role } from '../access/principal.ts'
import type { Db } from '../db/database.ts'
import type { SsoIdentity } from './sso-identity.ts'

/** One workspace an identity may open: as a person it is, or by joining it. */
export type SsoOption =
  | {
      /** A person of the workspace: linked to the identity, or with its email and not linked. */
      readonly kind: 'person'
      readonly id: string
      readonly workspaceId: string
      readonly workspaceName: string
      readonly role: Role
    }
  | {
      /** A pending invitation of the email: joining makes a person with its role. */
      readonly kind: 'invitation'
      readonly id: string
      readonly workspaceId: string
      readonly workspaceName: string
      readonly role: Exclude<Role, 'owner'>
    }
  | {
      /** A workspace whose owner lets the email's domain join: as a member. */
      readonly kind: 'domain'
      readonly id: string
      readonly workspaceId: string
      readonly workspaceName: string
      readonly role: 'member'
    }

// The most workspaces one sign-in offers to choose from, as for a password.
const MOST_WORKSPACES = 20

/** The domain of an email address, as owners set it: what follows its @. */
export function emailDomain(email: string): string {
  return email.slice(email.lastIndexOf('@') + 1).toLowerCase()
}

/**
 * Every workspace the identity may open (docs/operations.md, "Single sign-on"), by name: the
 * active people linked to it; the active people with its email not linked under this issuer,
 * who are linked when they sign in; then, in workspaces where no person has the identity or the
 * email (deactivated people included: leaving is not undone by signing in), a pending invitation
 * of the email, else the owner's domain rule. A person linked to another subject of this issuer
 * is not opened by the email: the address has moved to someone else at the provider. An app
 * registered in one workspace (`clientWorkspaceId`) sees only that workspace's.
 */
export async function ssoOptions(
  db: Db,
  identity: SsoIdentity,
  clientWorkspaceId: string | null,
  now: Date,
): Promise<SsoOption[]> {
  const { issuer, subject, email } = identity
  const inScope = (workspaceId: string) =>
    clientWorkspaceId === null || workspaceId === clientWorkspaceId
  const people = await db
    .selectFrom('people as p')
    .innerJoin('workspaces as w', 'w.id', 'p.workspace_id')
    .select([
      'p.id',
      'p.workspace_id as workspaceId',
      'w.name as workspaceName',
      'p.role',
      'p.deactivated_at',
      'p.sso_issuer',
      'p.sso_subject',
    ])
    .where((eb) =>
      eb.or([
        eb.and([eb('p.sso_issuer', '=', issuer), eb('p.sso_subject', '=', subject)]),
        eb(sql`lower(p.email)`, '=', email),
      ]),
    )
    .execute()
  const taken = new Set(people.map((person) => person.workspaceId))
  const linked = (person: (typeof people)[number]) =>
    person.sso_issuer === issuer && person.sso_subject === subject
  const options: SsoOption[] = []
  const opened = new Set<string>()
  // The linked person first: in a workspace that has one, active or not, no other is opened.
  for (const person of [...people.filter(linked), ...people.filter((p) => !linked(p))]) {
    if (opened.has(person.workspaceId)) continue
    if (!linked(person) && person.sso_issuer === issuer) continue
    opened.add(person.workspaceId)
    if (person.deactivated_at !== null) continue
    options.push({
      kind: 'person',
      id: person.id,
      workspaceId: person.workspaceId,
      workspaceName: person.workspaceName,
      role: person.role,
    })
  }
  const invitations = await db
    .selectFrom('invitations as i')
    .innerJoin('workspaces as w', 'w.id', 'i.workspace_id')
    .select(['i.id', 'i.workspace_id as workspaceId', 'w.name as workspaceName', 'i.role'])
    .where(sql`lower(i.email)`, '=', email)
    .where('i.accepted_at', 'is', null)
    .where('i.revoked_at', 'is', null)
    .where('i.expires_at', '>', now)
    // Of two invitations to one workspace, the newest: the role its sender chose last.
    .orderBy('i.created_at', 'desc')
    .orderBy('i.id', 'desc')
    .execute()
  for (const invitation of invitations) {
    if (taken.has(invitation.workspaceId)) continue
    taken.add(invitation.workspaceId)
    options.push({ kind: 'invitation', ...invitation })
  }
  const byDomain = await db
    .selectFrom('workspaces')
    .select(['id', 'name'])
    .where('sso_email_domain', '=', emailDomain(email))
    .execute()
  for (const workspace of byDomain) {
    if (taken.has(workspace.id)) continue
    options.push({
      kind: 'domain',
      id: workspace.id,
      workspaceId: workspace.id,
      workspaceName: workspace.name,
      role: 'member',
    })
  }
  return options
    .filter((option) => inScope(option.workspaceId))
    .sort(
      (a, b) =>
        a.workspaceName.localeCompare(b.workspaceName) ||
        a.workspaceId.localeCompare(b.workspaceId),
    )
    .slice(0, MOST_WORKSPACES)
}

/** The value of an option's radio button: its kind and id, checked again when it comes back. */
export function optionValue(option: SsoOption): string {
  return `${option.kind}:${option.id}`
}

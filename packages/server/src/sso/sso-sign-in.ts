import type { FastifyRequest } from 'fastify'
import { sql } from 'kysely'
import type { AppDeps } from '../app-deps.ts'
import type { AuditActor } from '../audit/audit-writer.ts'
import type { Db } from '../db/database.ts'
import { recordPersonJoined } from '../graph/people/person-joined.ts'
import { newId } from '../lib/ids.ts'
import type { SsoIdentity } from './sso-identity.ts'
import { emailDomain, type SsoOption } from './sso-options.ts'

/** Where a request came from, for the audit entry of a join. */
export interface RequestOrigin {
  readonly requestId: string
  readonly ip: string
  readonly userAgent: string | null
}

/** A request's origin, for the audit entry of a join. */
export function originOf(request: FastifyRequest): RequestOrigin {
  const userAgent = request.headers['user-agent']
  return {
    requestId: request.id,
    ip: request.ip,
    userAgent: typeof userAgent === 'string' ? userAgent : null,
  }
}

/** Who a sign-in through the provider signs in as. */
export interface SsoPerson {
  readonly personId: string
  readonly workspaceId: string
}

/**
 * Signs the identity in through one of its options (sso-options.ts), in one transaction that
 * checks the option again under lock: the person, linked to the identity if they were not; or a
 * new person, linked, made by the invitation (used up) or by the workspace's domain rule, with
 * `person.joined`. Undefined when the option no longer holds (an invitation used or revoked, a
 * domain changed, a person deactivated or linked since the page was shown).
 */
export async function ssoSignIn(
  deps: AppDeps,
  identity: SsoIdentity,
  option: SsoOption,
  origin: RequestOrigin,
): Promise<SsoPerson | undefined> {
  const now = deps.clock.now()
  const person = await deps.db.transaction().execute(async (trx) => {
    if (option.kind === 'person') return linkPerson(trx, identity, option)
    if (await identityTaken(trx, option.workspaceId, identity)) return undefined
    if (option.kind === 'invitation') {
      const invitation = await trx
        .selectFrom('invitations')
        .select(['id', 'role'])
        .where('workspace_id', '=', option.workspaceId)
        .where('id', '=', option.id)
        .where(sql`lower(email)`, '=', identity.email)
        .where('accepted_at', 'is', null)
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', now)
        // Locked: of two sign-ins with one invitation, the second finds it used.
        .forUpdate()
        .executeTakeFirst()
      if (!invitation) return undefined
      const joined = await join(deps, trx, identity, {
        workspaceId: option.workspaceId,
        role: invitation.role,
        credential: { tokenId: invitation.id, tokenKind: 'invitation' },
        audit: { invitation_id: invitation.id },
        origin,
      })
      await trx
        .updateTable('invitations')
        .set({ accepted_at: now, person_id: joined.personId })
        .where('workspace_id', '=', option.workspaceId)
        .where('id', '=', invitation.id)
        .execute()
      return joined
    }
    const workspace = await trx
      .selectFrom('workspaces')
      .select('sso_email_domain')
      .where('id', '=', option.workspaceId)
      // Locked: an owner's change of the domain waits for this join, or this join sees it.
      .forUpdate()
      .executeTakeFirst()
    if (workspace?.sso_email_domain !== emailDomain(identity.email)) return undefined
    return join(deps, trx, identity, {
      workspaceId: option.workspaceId,
      role: 'member',
      credential: { tokenId: null, tokenKind: 'sso_domain' },
      audit: { email_domain: workspace.sso_email_domain },
      origin,
    })
  })
  if (person && option.kind !== 'person') {
    deps.health.written()
    deps.writeHooks.afterCommit?.()
  }
  return person
}

// The person of the option, still active and still the identity's: linked to it, or with its
// email and linked to no other subject of this issuer; linked to it now if they were not.
async function linkPerson(
  trx: Db,
  identity: SsoIdentity,
  option: SsoOption,
): Promise<SsoPerson | undefined> {
  const person = await trx
    .selectFrom('people')
    .select(['id', 'workspace_id', 'email', 'deactivated_at', 'sso_issuer', 'sso_subject'])
    .where('workspace_id', '=', option.workspaceId)
    .where('id', '=', option.id)
    .forUpdate()
    .executeTakeFirst()
  if (!person || person.deactivated_at !== null) return undefined
  const found = { personId: person.id, workspaceId: person.workspace_id }
  if (person.sso_issuer === identity.issuer && person.sso_subject === identity.subject) return found
  if (person.sso_issuer === identity.issuer || person.email.toLowerCase() !== identity.email)
    return undefined
  // Another person of the workspace linked to the identity keeps it (sso-options.ts opens that one).
  const linked = await trx
    .selectFrom('people')
    .select('id')
    .where('workspace_id', '=', person.workspace_id)
    .where('sso_issuer', '=', identity.issuer)
    .where('sso_subject', '=', identity.subject)
    .executeTakeFirst()
  if (linked) return undefined
  await trx
    .updateTable('people')
    .set({ sso_issuer: identity.issuer, sso_subject: identity.subject })
    .where('workspace_id', '=', person.workspace_id)
    .where('id', '=', person.id)
    .execute()
  return found
}

// Whether a person of the workspace already has the identity or its email: no one joins twice.
async function identityTaken(trx: Db, workspaceId: string, identity: SsoIdentity) {
  const row = await trx
    .selectFrom('people')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .where((eb) =>
      eb.or([
        eb(sql`lower(email)`, '=', identity.email),
        eb.and([eb('sso_issuer', '=', identity.issuer), eb('sso_subject', '=', identity.subject)]),
      ]),
    )
    .executeTakeFirst()
  return row !== undefined
}

// A new person of the workspace, linked to the identity and with no password, and `person.joined`
// audited as theirs, through the credential they joined with.
async function join(
  deps: AppDeps,
  trx: Db,
  identity: SsoIdentity,
  input: {
    workspaceId: string
    role: 'admin' | 'member' | 'guest'
    credential: { tokenId: string | null; tokenKind: string }
    audit: Record<string, unknown>
    origin: RequestOrigin
  },
): Promise<SsoPerson> {
  const now = deps.clock.now()
  const name = identity.name ?? identity.email.slice(0, identity.email.indexOf('@'))
  const person = await trx
    .insertInto('people')
    .values({
      workspace_id: input.workspaceId,
      id: newId('person'),
      name,
      email: identity.email,
      role: input.role,
      password_hash: null,
      sso_issuer: identity.issuer,
      sso_subject: identity.subject,
      created_at: now,
      updated_at: now,
    })
    .returning(['workspace_id', 'id', 'name', 'email', 'role', 'created_at', 'updated_at'])
    .executeTakeFirstOrThrow()
  const actor: AuditActor = {
    workspaceId: input.workspaceId,
    actorId: person.id,
    ...input.credential,
    clientId: null,
    requestId: input.origin.requestId,
    ip: input.origin.ip,
    userAgent: input.origin.userAgent,
    via: 'web',
  }
  await recordPersonJoined({ trx, actor, now, urls: deps.urls }, person, input.audit)
  return { personId: person.id, workspaceId: person.workspace_id }
}

import type { Transaction } from 'kysely'
import { emailPasswordHash } from '../access/email-password-hashes.ts'
import { scopesOfRole } from '../access/role-scopes.ts'
import { hashSecret, lastFour, newSecret, SECRET_PREFIX } from '../access/secrets.ts'
import { type AuditActor, recordAudit } from '../audit/audit-writer.ts'
import type { Database } from '../db/database.ts'
import { newId } from '../lib/ids.ts'
import { auditedToken } from '../tokens/tokens.present.ts'
import type { NewOwner } from './owner-input.ts'
import { issuePasswordLink } from './password-links.ts'
import { endSetupTokens } from './setup-tokens.ts'

/** A workspace just made, with its owner. */
export interface CreatedWorkspace {
  workspaceId: string
  workspaceName: string
  personId: string
  personName: string
  email: string
}

/** How the owner signs in: the password given, the one their email has already, or a link. */
export type OwnerPassword =
  | { kind: 'given' }
  | { kind: 'existing' }
  | { kind: 'link'; link: string }

/** What starting a workspace made: the workspace, its owner, their first key, their password. */
export interface StartedWorkspace extends CreatedWorkspace {
  apiKey: string
  keyId: string
  password: OwnerPassword
}

/** What `startWorkspace` is given besides the owner. */
export interface StartOptions {
  /** The owner's password, hashed, or a single-use link for them to choose it. */
  password: { hash: string } | { link: true }
  now: Date
  /** Who the audit log names for the creation, once the owner exists (and a session, if any). */
  actor: (trx: Transaction<Database>, created: CreatedWorkspace) => Promise<AuditActor>
}

// The name of the key made with a workspace: its owner's first.
const FIRST_KEY_NAME = 'First key'

/**
 * Makes a workspace and its owner, in the caller's transaction (the setup lock's: setup-lock.ts),
 * audited as `workspace.created` and `api_key.created`, and issues the owner's first API key with
 * every scope an owner may hold. One password per email (web/email-passwords.ts): an email that
 * already signs in to another workspace keeps its password, and the one given is not used. The
 * first-run page's links end here, since a workspace now exists.
 */
export async function startWorkspace(
  trx: Transaction<Database>,
  owner: NewOwner,
  options: StartOptions,
): Promise<StartedWorkspace> {
  const { now } = options
  const existing = await emailPasswordHash(trx, owner.email)
  const created: CreatedWorkspace = {
    workspaceId: newId('workspace'),
    workspaceName: owner.workspace_name,
    personId: newId('person'),
    personName: owner.name,
    email: owner.email,
  }
  const { workspaceId, personId } = created
  await trx
    .insertInto('workspaces')
    .values({
      id: workspaceId,
      name: owner.workspace_name,
      plan: 'free',
      created_at: now,
      updated_at: now,
    })
    .execute()
  await trx
    .insertInto('people')
    .values({
      workspace_id: workspaceId,
      id: personId,
      name: owner.name,
      email: owner.email,
      role: 'owner',
      password_hash: existing ?? ('hash' in options.password ? options.password.hash : null),
      created_at: now,
      updated_at: now,
    })
    .execute()
  // The change feed's counter, which every workspace has from its first moment (docs/changes.md).
  await trx.insertInto('change_positions').values({ workspace_id: workspaceId, last: 0 }).execute()
  await endSetupTokens(trx)
  const password: OwnerPassword = existing
    ? { kind: 'existing' }
    : 'hash' in options.password
      ? { kind: 'given' }
      : { kind: 'link', link: await issuePasswordLink(trx, { workspaceId, personId, now }) }
  const actor = await options.actor(trx, created)
  await recordAudit(
    trx,
    actor,
    {
      action: 'workspace.created',
      resourceId: workspaceId,
      resourceType: 'workspace',
      before: null,
      after: { name: owner.workspace_name, plan: 'free', owner_id: personId },
    },
    now,
  )
  const apiKey = newSecret(SECRET_PREFIX.apiKey)
  const key = await trx
    .insertInto('tokens')
    .values({
      workspace_id: workspaceId,
      id: newId('apiKey'),
      kind: 'api_key',
      person_id: personId,
      integration_id: null,
      name: FIRST_KEY_NAME,
      scopes: [...scopesOfRole('owner')],
      secret_hash: hashSecret(apiKey),
      last4: lastFour(apiKey),
      created_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow()
  await recordAudit(
    trx,
    actor,
    {
      action: 'api_key.created',
      resourceId: key.id,
      resourceType: 'api_key',
      before: null,
      after: auditedToken(key),
    },
    now,
  )
  return { ...created, apiKey, keyId: key.id, password }
}

import { ProblemError } from '../api/problem-catalogue.ts'
import { recordAudit } from '../audit/audit-writer.ts'
import { requireAdministrator, requireOwnerFor } from '../graph/people/people-admin.rules.ts'
import type { WriteContext } from '../writes/write-context.ts'

// A host name of letters, digits and hyphens in dot-separated labels, its last one letters: an
// internationalized domain is given in its ASCII (punycode) form, as providers send addresses.
const DOMAIN =
  /^(?=.{4,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/

// A domain as a form gives it (`Example.com`, `@example.com`), as it is stored; '' is none.
function normalDomain(value: string): string {
  return value.trim().replace(/^@/, '').toLowerCase()
}

/**
 * Sets the email domain whose verified addresses at the identity provider join the workspace as
 * members at their first sign-in, or clears it (null). An owner's to set, like an admin's
 * invitation (docs/permissions.md, "Administering people"): it lets a whole domain in without
 * anyone naming them. Audited as `workspace.updated`. Returns the domain now set.
 */
export async function setSsoEmailDomain(
  w: WriteContext,
  value: string | null,
): Promise<string | null> {
  requireAdministrator(w.principal)
  requireOwnerFor(w.principal, 'choose which email domain joins the workspace')
  const domain = value === null || normalDomain(value) === '' ? null : normalDomain(value)
  if (domain !== null && !DOMAIN.test(domain))
    throw new ProblemError('invalid_request', 'The form has fields to correct.', {
      errors: [{ path: '/domain', message: 'Give a domain such as example.com, or nothing.' }],
    })
  const ws = w.principal.workspaceId
  // Locked: a sign-in joining by the old domain finishes first, or sees the new one.
  const before = await w.trx
    .selectFrom('workspaces')
    .select('sso_email_domain')
    .where('id', '=', ws)
    .forUpdate()
    .executeTakeFirstOrThrow()
  if (before.sso_email_domain === domain) return domain
  await w.trx
    .updateTable('workspaces')
    .set({ sso_email_domain: domain, updated_at: w.now })
    .where('id', '=', ws)
    .execute()
  await recordAudit(
    w.trx,
    w.actor,
    {
      action: 'workspace.updated',
      resourceId: ws,
      resourceType: 'workspace',
      before: { sso_email_domain: before.sso_email_domain },
      after: { sso_email_domain: domain },
    },
    w.now,
  )
  return domain
}

import { type Kysely, sql } from 'kysely'

/**
 * Signing in through an OpenID Connect identity provider (docs/operations.md, "Single sign-on"):
 * - `people.sso_issuer` and `people.sso_subject`: the identity a person was linked to at their
 *   first sign-in through the provider. Sign-in finds them by it from then on, so an email changed
 *   or handed to someone else at the provider neither loses nor moves the person. One person per
 *   identity and workspace; the lookup crosses workspaces as an email's does.
 * - `workspaces.sso_email_domain`: the email domain whose verified addresses join the workspace
 *   as members at their first sign-in, set by an owner; null, no one joins without an invitation.
 * - Pending invitations by email across workspaces: what a first sign-in looks for.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(`
alter table people add column sso_issuer text;
alter table people add column sso_subject text;
alter table people add constraint people_sso_identity_check
  check ((sso_issuer is null) = (sso_subject is null));
create unique index people_sso_identity_key on people (workspace_id, sso_issuer, sso_subject)
  where sso_subject is not null;
create index people_sso_identity_idx on people (sso_issuer, sso_subject)
  where sso_subject is not null;
alter table workspaces add column sso_email_domain text
  check (sso_email_domain = lower(sso_email_domain));
create index workspaces_sso_email_domain_idx on workspaces (sso_email_domain)
  where sso_email_domain is not null;
create index invitations_pending_email_idx on invitations (lower(email))
  where accepted_at is null and revoked_at is null;
`)
    .execute(db)
}

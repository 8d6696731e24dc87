import { type Kysely, sql } from 'kysely'

/**
 * Credentials fenced to projects and time (docs/permissions.md, "Fenced credentials"):
 * - `tokens.project_ids`: the projects a key or workspace token is fenced to; null, unfenced.
 * - `tokens.valid_until`: the end a key was created with (asked for, or inherited from the
 *   credential that made it). Rotation never moves it; `expires_at` is the earlier of it and a
 *   rotation's overlap end, and is what authentication reads.
 * - `oauth_artifacts.project_ids`: on a Grant row, the projects the person picked at consent;
 *   every access token of the grant is fenced to them.
 * - `webhook_endpoints.owner_project_ids`: the fence of the credential that created (or last
 *   re-enabled) the endpoint, kept beside `owner_scopes` for the same reason.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(`
alter table tokens add column project_ids text[];
alter table tokens add column valid_until timestamptz(3);
alter table oauth_artifacts add column project_ids text[];
alter table webhook_endpoints add column owner_project_ids text[];
`)
    .execute(db)
}

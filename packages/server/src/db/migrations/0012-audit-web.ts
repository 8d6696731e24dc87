import { type Kysely, sql } from 'kysely'

/**
 * `audit_log.via` may be `web`: a change made on the dashboard's pages, signed in with a session
 * rather than a bearer token (docs/api.md, "Audit log"; docs/dashboard.md).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(`
alter table audit_log drop constraint audit_log_via_check;
alter table audit_log add constraint audit_log_via_check check (via in ('api', 'mcp', 'web'));
`)
    .execute(db)
}

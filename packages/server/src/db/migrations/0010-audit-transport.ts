import { type Kysely, sql } from 'kysely'

/**
 * `audit_log.via`: the interface a change came through, the REST API or the MCP server, so an
 * owner reviewing an agent's writes can tell them apart (docs/api.md, "Audit log").
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(`
alter table audit_log add column via text not null default 'api';
alter table audit_log add constraint audit_log_via_check check (via in ('api', 'mcp'));
`)
    .execute(db)
}

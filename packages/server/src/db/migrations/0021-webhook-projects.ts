import { type Kysely, sql } from 'kysely'

/**
 * An endpoint may hear of some projects only (`project_ids`): events whose subject belongs to
 * one of them. Null, the default, is every event its owner may open.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table webhook_endpoints add column project_ids text[]`.execute(db)
}

import { type Kysely, sql } from 'kysely'

/**
 * An event keeps the W3C `traceparent` of the request that wrote it, when that request was traced,
 * so the webhook attempts that announce it join the same trace (docs/operations.md, "Traces").
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table events add column trace_parent text`.execute(db)
}

import { type Kysely, sql } from 'kysely'

/**
 * Changes to people and teams are activity entries too (docs/changes.md). The stream reads them
 * apart from content, newest first (activity/activity.queries.ts): this index holds only them, so
 * that read walks the directory's few entries instead of the whole stream.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index activity_directory_idx on activity (workspace_id, created_at desc, id desc)
    where subject_type in ('person', 'team')`.execute(db)
}

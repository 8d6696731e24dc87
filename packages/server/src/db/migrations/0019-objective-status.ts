import { type Kysely, sql } from 'kysely'

/**
 * Objectives can be closed (docs/api.md, "Writes"): `status` is `open` until its owner, its team
 * or an admin closes it, and `closed_at` says when, set exactly while it is closed. Every
 * objective written before this is open.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(`
alter table objectives
  add column status text not null default 'open' check (status in ('open', 'closed')),
  add column closed_at timestamptz(3),
  add constraint objectives_closed_at_check check ((status = 'closed') = (closed_at is not null));
`)
    .execute(db)
}

import { sql } from 'kysely'
import type { Visibility } from '../../access/visibility.ts'
import type { Db } from '../../db/database.ts'
import type { CursorPosition } from '../../lib/cursor.ts'
import { edgesOf } from './link-edges.ts'

/** A visible neighbour. */
export interface LinkRow {
  rel: string
  rank: number
  id: string
  type: string
  title: string
}

/**
 * The neighbours of a resource that the principal may see, of the types the token may read, in
 * relation order then by id; `limit + 1` rows. Hidden neighbours are left out, never counted.
 */
export async function listLinks(
  db: Db,
  visibility: Visibility,
  readableKinds: readonly string[],
  subjectId: string,
  after: CursorPosition | null,
  limit: number,
): Promise<LinkRow[]> {
  const ws = visibility.principal.workspaceId
  const edges = edgesOf(ws, subjectId)
  if (!edges) return []
  const keyset = after ? sql`and (e.rank, e.id) > (${after[0]}::int, ${after[1]}::text)` : sql``
  const rows = await sql<LinkRow>`
    with e as (select distinct rel, rank, id from (${edges}) edges where id is not null)
    select * from (
      select e.rel, e.rank, e.id,
        coalesce(r.type, case when p.id is not null then 'person' when t.id is not null then 'team' when i.id is not null then 'integration' end) as type,
        coalesce(case when r.type = 'comment' then left(r.body, 120) else r.title end, p.name, t.name, i.name) as title
      from e
      left join resource_index r on r.workspace_id = ${ws} and r.id = e.id and ${visibility.row('r')}
      left join people p on p.workspace_id = ${ws} and p.id = e.id and ${visibility.person('p')}
      left join teams t on t.workspace_id = ${ws} and t.id = e.id and ${visibility.team('t')}
      left join integrations i on i.workspace_id = ${ws} and i.id = e.id and ${visibility.integration('i')}
      where true ${keyset}
    ) visible
    where type = any(${sql.val([...readableKinds, ...(readableKinds.includes('person') ? ['integration'] : [])])}::text[])
    order by rank, id
    limit ${limit + 1}`.execute(db)
  return rows.rows
}

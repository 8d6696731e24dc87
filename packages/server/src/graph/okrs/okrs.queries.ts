import { type RawBuilder, type Selectable, sql } from 'kysely'
import type { Visibility } from '../../access/visibility.ts'
import { indexedRefVisible, personRefVisible, teamRefVisible } from '../../access/visible-refs.ts'
import type { Db } from '../../db/database.ts'
import type { ObjectiveStatus, ObjectivesTable } from '../../db/tables/okr.table.ts'
import type { CursorPosition } from '../../lib/cursor.ts'
import { visiblePage } from '../visible-page.ts'

/** A key result as loaded with its objective. */
export interface KeyResultJson {
  id: string
  title: string
  start: number
  target: number
  current: number
  unit: string
  /** As JSON gives it: a timestamp string. */
  updated_at: string
}

/** An objective row with its key results and visible links. */
export type OkrRow = Selectable<ObjectivesTable> & {
  owner_visible: boolean
  team_visible: boolean
  project_visible: boolean
  key_results: KeyResultJson[]
  /** The confidence of its latest check-in that gave one. */
  confidence: number | null
}

/** Filters of an OKR list. */
export interface OkrFilters {
  ids?: readonly string[]
  session?: string | undefined
  project_id?: string | undefined
  team_id?: string | undefined
  status?: ObjectiveStatus | undefined
}

/** Objectives the principal may open, newest first; `limit + 1` rows, key results included. */
export async function listOkrs(
  db: Db,
  visibility: Visibility,
  filters: OkrFilters,
  after: CursorPosition | null,
  limit: number,
): Promise<OkrRow[]> {
  const { session, team_id, status } = filters
  const page = visiblePage(db, visibility, 'okr', filters, after, limit, (rows) =>
    session || team_id || status
      ? rows.where(({ exists, selectFrom }) => {
          let objective = selectFrom('objectives as o')
            .select('o.id')
            .whereRef('o.workspace_id', '=', 'r.workspace_id')
            .whereRef('o.id', '=', 'r.id')
          if (session) objective = objective.where('o.session', '=', session)
          if (team_id) objective = objective.where('o.team_id', '=', team_id)
          if (status) objective = objective.where('o.status', '=', status)
          return exists(objective)
        })
      : rows,
  )
  // The page first, then the link checks for its rows only (see visiblePage).
  return db
    .selectFrom(page)
    .innerJoin('objectives as o', (join) =>
      join
        .on('o.workspace_id', '=', visibility.principal.workspaceId)
        .onRef('o.id', '=', 'page.id'),
    )
    .selectAll('o')
    .select([
      personRefVisible(visibility, 'o.owner_id').as('owner_visible'),
      teamRefVisible(visibility, 'o.team_id').as('team_visible'),
      indexedRefVisible(visibility, 'o.project_id').as('project_visible'),
      // Key results follow their objective: no visibility check of their own.
      sql<KeyResultJson[]>`coalesce((
        select json_agg(json_build_object('id', k.id, 'title', k.title, 'start', k.start, 'target', k.target,
                                          'current', k.current, 'unit', k.unit, 'updated_at', k.updated_at)
                         order by k.position)
        from key_results k where k.workspace_id = o.workspace_id and k.objective_id = o.id), '[]')`.as(
        'key_results',
      ),
      // Check-ins follow their objective too.
      latestConfidence().as('confidence'),
    ])
    .orderBy('page.created_at', 'desc')
    .orderBy('page.id', 'desc')
    .execute()
}

/**
 * The confidence of the latest check-in that gave one, of the objective aliased `o`: what its
 * record, its health and search hits read (docs/api.md, "OKR health"). Of check-ins made at the
 * same moment (one round over several key results), the lowest: the owner's doubt about one key
 * result is news, and a random id must not decide an objective's health.
 */
export function latestConfidence(): RawBuilder<number | null> {
  return sql<number | null>`(
    select c.confidence from checkins c
    where c.workspace_id = o.workspace_id and c.objective_id = o.id and c.confidence is not null
    order by c.created_at desc, c.confidence asc limit 1)`
}

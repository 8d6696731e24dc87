import type { Visibility } from '../../access/visibility.ts'
import type { Db } from '../../db/database.ts'

/** The most projects a choice lists; someone who can open more picks among the newest. */
const LISTED = 500

/**
 * The projects a caller can open, by name: the choices of a form that fences a credential to
 * projects (the consent page's project picker, the dashboard's key form).
 */
export async function projectChoices(
  db: Db,
  visibility: Visibility,
): Promise<{ id: string; name: string }[]> {
  const rows = await db
    .selectFrom('projects as p')
    .innerJoin('resource_index as r', (join) =>
      join.onRef('r.workspace_id', '=', 'p.workspace_id').onRef('r.id', '=', 'p.id'),
    )
    .select(['p.id', 'p.name'])
    .where('p.workspace_id', '=', visibility.principal.workspaceId)
    .where(visibility.row('r'))
    .orderBy('p.updated_at', 'desc')
    .orderBy('p.id')
    .limit(LISTED)
    .execute()
  return rows.sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id))
}

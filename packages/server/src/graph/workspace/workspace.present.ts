import type { Selectable } from 'kysely'
import type { Static } from 'typebox'
import type { WorkspacesTable } from '../../db/tables/workspace.table.ts'
import type { UrlBuilder } from '../../lib/resource-urls.ts'
import type { WorkspaceRecord } from './workspace.schemas.ts'

const PUBLIC_SETTINGS = ['timezone', 'locale'] as const

/** The workspace as the API shows it; settings are reduced to their public subset. */
export function presentWorkspace(
  row: Selectable<WorkspacesTable>,
  memberCount: number,
  urls: UrlBuilder,
): Static<typeof WorkspaceRecord> {
  const settings: Record<string, string> = {}
  for (const name of PUBLIC_SETTINGS) {
    const value = row.settings[name]
    if (typeof value === 'string') settings[name] = value
  }
  return {
    id: row.id,
    type: 'workspace',
    ...urls.workspace(row.id),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    name: row.name,
    plan: row.plan,
    member_count: memberCount,
    settings,
  }
}

import type { Db } from '../db/database.ts'

/**
 * The names of token owners (people and integrations of the workspace) by id. Those who manage
 * every token see who holds each; this opens no content.
 */
export async function ownerNames(
  db: Db,
  workspaceId: string,
  ids: readonly string[],
): Promise<Map<string, string>> {
  const names = new Map<string, string>()
  if (ids.length === 0) return names
  const wanted = [...new Set(ids)]
  const people = await db
    .selectFrom('people')
    .select(['id', 'name'])
    .where('workspace_id', '=', workspaceId)
    .where('id', 'in', wanted)
    .execute()
  const integrations = await db
    .selectFrom('integrations')
    .select(['id', 'name'])
    .where('workspace_id', '=', workspaceId)
    .where('id', 'in', wanted)
    .execute()
  for (const row of [...people, ...integrations]) names.set(row.id, row.name)
  return names
}

/** The workspace's integrations, by name: what a new workspace token may act as. */
export function listIntegrations(db: Db, workspaceId: string) {
  return db
    .selectFrom('integrations')
    .select(['id', 'name'])
    .where('workspace_id', '=', workspaceId)
    .orderBy('name')
    .orderBy('id')
    .execute()
}

/**
 * Everyone who can act in the workspace (its people, then its integrations), by name, at most
 * `limit`: the choices of the audit page's actor filter, for owners and admins like ownerNames.
 */
export async function listActors(
  db: Db,
  workspaceId: string,
  limit: number,
): Promise<{ id: string; name: string; kind: 'person' | 'integration' }[]> {
  const people = await db
    .selectFrom('people')
    .select(['id', 'name'])
    .where('workspace_id', '=', workspaceId)
    .orderBy('name')
    .orderBy('id')
    .limit(limit)
    .execute()
  const integrations = await listIntegrations(db, workspaceId)
  return [
    ...people.map((row) => ({ ...row, kind: 'person' as const })),
    ...integrations.map((row) => ({ ...row, kind: 'integration' as const })),
  ].slice(0, limit)
}

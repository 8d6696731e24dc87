import type { Caller } from '../access/caller.ts'
import type { AppDeps } from '../app-deps.ts'
import { listCanvases } from '../graph/canvases/canvases.queries.ts'
import { listOkrs } from '../graph/okrs/okrs.queries.ts'
import { listPeople, listTeams } from '../graph/people/people.queries.ts'
import { listProjects } from '../graph/projects/projects.queries.ts'
import { listTasks } from '../graph/tasks/tasks.queries.ts'
import { type IdKind, idKind } from '../lib/ids.ts'

/** A neighbour a page may link to: its name and the path of its page. */
export interface Neighbour {
  readonly name: string
  readonly path: string
}

/** The `{type}` segment of a resource's URL for each kind of id (lib/resource-urls.ts). */
export const URL_TYPE_OF_KIND: Partial<Record<IdKind, string>> = {
  person: 'person',
  team: 'team',
  project: 'project',
  canvas: 'canvas',
  task: 'task',
  okr: 'okr',
  key_result: 'key_result',
  checkin: 'checkin',
  comment: 'comment',
  activity: 'activity',
}

/** The page of a resource on this service: `/{workspace_id}/{type}/{id}`, as its `url` says. */
export function pagePath(workspaceId: string, id: string): string {
  const type = URL_TYPE_OF_KIND[idKind(id) ?? 'workspace']
  return type ? `/${workspaceId}/${type}/${id}` : `/${workspaceId}`
}

/**
 * Names of the neighbours a page links to, through the API's own list queries and so the same
 * visibility: an id the caller may not open is simply absent, and the page shows no link for it.
 */
export async function neighbourNames(
  deps: AppDeps,
  caller: Caller,
  ids: Iterable<string | null | undefined>,
): Promise<Map<string, Neighbour>> {
  const byKind = new Map<IdKind, string[]>()
  for (const id of new Set(ids)) {
    const kind = id ? idKind(id) : null
    if (id && kind) byKind.set(kind, [...(byKind.get(kind) ?? []), id])
  }
  const { db } = deps
  const { visibility, readableKinds } = caller
  const ws = visibility.principal.workspaceId
  const names = new Map<string, Neighbour>()
  const add = (rows: { id: string; name?: string; title?: string }[]) => {
    for (const row of rows)
      names.set(row.id, { name: row.name ?? row.title ?? row.id, path: pagePath(ws, row.id) })
  }
  const of = (kind: IdKind) => byKind.get(kind) ?? []
  const loads: Promise<void>[] = []
  const load = (kind: IdKind, list: (ids: string[]) => Promise<{ id: string }[]>) => {
    const wanted = of(kind)
    if (wanted.length > 0) loads.push(list(wanted).then(add))
  }
  load('person', (ids) => listPeople(db, visibility, { ids }, null, ids.length))
  load('team', (ids) => listTeams(db, visibility, { ids }, null, ids.length))
  load('project', (ids) => listProjects(db, visibility, { ids }, null, ids.length))
  load('task', (ids) => listTasks(db, visibility, { ids }, null, ids.length))
  load('canvas', (ids) => listCanvases(db, visibility, readableKinds, { ids }, null, ids.length))
  load('okr', (ids) => listOkrs(db, visibility, { ids }, null, ids.length))
  await Promise.all(loads)
  return names
}

import type { Caller } from '../access/caller.ts'
import type { AppDeps } from '../app-deps.ts'
import { kindOfId } from '../catalogue/catalogue.ts'
import { namesOf } from '../graph/resources/resource-names.ts'

/** A neighbour a page may link to: its name and the path of its page. */
export interface Neighbour {
  readonly name: string
  readonly path: string
}

/** The page of a resource on this service: `/{workspace_id}/{kind}/{id}`, as its `url` says. */
export function pagePath(workspaceId: string, id: string): string {
  const kind = kindOfId(id)
  return kind?.page ? `/${workspaceId}/${kind.name}/${id}` : `/${workspaceId}`
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
  const ws = caller.visibility.principal.workspaceId
  const names = await namesOf(deps, caller, ids)
  return new Map([...names].map(([id, name]) => [id, { name, path: pagePath(ws, id) }]))
}

import type { Caller } from '../access/caller.ts'
import type { AppDeps } from '../app-deps.ts'
import { kindOfId } from '../catalogue/catalogue.ts'

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

/** The names of the resources of a kind among `ids` that the caller may open. */
export type NameLoader = (
  deps: AppDeps,
  caller: Caller,
  ids: string[],
) => Promise<{ id: string; name?: string; title?: string }[]>

declare module '../catalogue/kind.ts' {
  interface KindParts {
    /** Its name, where a page links to one (through its API list query, so its visibility). */
    names: NameLoader
  }
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
  const byKind = new Map<NameLoader, string[]>()
  for (const id of new Set(ids)) {
    const loader = id ? kindOfId(id)?.names : undefined
    if (id && loader) byKind.set(loader, [...(byKind.get(loader) ?? []), id])
  }
  const ws = caller.visibility.principal.workspaceId
  const names = new Map<string, Neighbour>()
  const rows = await Promise.all([...byKind].map(([load, wanted]) => load(deps, caller, wanted)))
  for (const row of rows.flat())
    names.set(row.id, { name: row.name ?? row.title ?? row.id, path: pagePath(ws, row.id) })
  return names
}

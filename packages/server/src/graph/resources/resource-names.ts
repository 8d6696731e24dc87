import type { Caller } from '../../access/caller.ts'
import type { AppDeps } from '../../app-deps.ts'
import { kindOfId } from '../../catalogue/catalogue.ts'

/** The names of the resources of a kind among `ids` that the caller may open. */
export type NameLoader = (
  deps: AppDeps,
  caller: Caller,
  ids: string[],
) => Promise<{ id: string; name?: string; title?: string }[]>

declare module '../../catalogue/kind.ts' {
  interface KindParts {
    /**
     * Its name, where an answer names one instead of giving its id (a page's links, a list row's
     * assignee): through its API list query, so its visibility.
     */
    names: NameLoader
  }
}

/**
 * The names of the resources among `ids` that the caller may open, one query per kind, through
 * each kind's own list query and so the same visibility: an id the caller may not open, of a kind
 * its token may not read, or of a kind with no names, is simply absent.
 */
export async function namesOf(
  deps: AppDeps,
  caller: Caller,
  ids: Iterable<string | null | undefined>,
): Promise<Map<string, string>> {
  const byKind = new Map<NameLoader, string[]>()
  for (const id of new Set(ids)) {
    const kind = id ? kindOfId(id) : undefined
    // A name is content of its kind: a token that may not read people learns no one's name.
    const loader = kind && caller.readableKinds.includes(kind.name) ? kind.names : undefined
    if (id && loader) byKind.set(loader, [...(byKind.get(loader) ?? []), id])
  }
  const rows = await Promise.all([...byKind].map(([load, wanted]) => load(deps, caller, wanted)))
  return new Map(rows.flat().map((row) => [row.id, row.name ?? row.title ?? row.id]))
}

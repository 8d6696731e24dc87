import type { RawBuilder } from 'kysely'
import { kindOfId } from '../../catalogue/catalogue.ts'

/*
 * The neighbours of each kind of resource, as `(rel, rank, id)` rows: what `GET
 * /v1/resources/:id/links` and summaries walk. Visibility is applied by the caller to the ids
 * these produce; nothing here decides who may see what.
 */

/** The edge rows of one resource of a kind, in the workspace. */
export type LinkEdges = (workspaceId: string, id: string) => RawBuilder<unknown>

declare module '../../catalogue/kind.ts' {
  interface KindParts {
    /** Its neighbours (`GET /v1/resources/:id/links`). */
    links: LinkEdges
  }
}

/** The edge rows of a resource, or null for a kind that has no neighbours. */
export function edgesOf(workspaceId: string, id: string): RawBuilder<unknown> | null {
  const edges = kindOfId(id)?.links
  return edges ? edges(workspaceId, id) : null
}

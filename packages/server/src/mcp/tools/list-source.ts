import type { Reference } from '../../api/require-visible.ts'
import type { CursorPosition } from '../../lib/cursor.ts'
import type { McpSession } from '../mcp-session.ts'

/** The filters the `list` tool takes; each type reads the ones that apply to it. */
export type ListFilters = {
  project_id?: string
  assignee_id?: string
  team_id?: string
  status?: string[]
  due_before?: string
  due_after?: string
  session?: string
}

/** The names of the filters, in the order the tool checks them. */
export const LIST_FILTERS = [
  'project_id',
  'assignee_id',
  'team_id',
  'status',
  'due_before',
  'due_after',
  'session',
] as const satisfies readonly (keyof ListFilters)[]

/**
 * One row of a list as the tool shows it: a cited item and a few facts. A fact that is true is
 * said by its name alone (`overdue`); false or null, not at all.
 */
export interface ListItem {
  id: string
  type: string
  title: string
  url: string
  facts: Record<string, string | number | boolean | null>
  position: CursorPosition
}

/** How the `list` tool reads one type: the same queries as its `/v1` list, newest or by name. */
export interface ListSource {
  /** The filters that apply to the type; any other is refused rather than silently ignored. */
  filters: readonly (keyof ListFilters)[]
  /** The statuses of the type, for types that have one. */
  statuses?: readonly string[]
  /** Ids among the filters, checked to be visible (a hidden id is an unknown id). */
  references(filters: ListFilters): Reference[]
  load(
    session: McpSession,
    filters: ListFilters,
    after: CursorPosition | null,
    limit: number,
  ): Promise<ListItem[]>
}

/** The page of a listed item. */
export function itemUrl(session: McpSession, type: string, id: string): string {
  return session.deps.urls.resource(session.caller.principal.workspaceId, type, id).url
}

declare module '../../catalogue/kind.ts' {
  interface KindParts {
    /** How the MCP `list` tool reads it. */
    list: ListSource
  }
}

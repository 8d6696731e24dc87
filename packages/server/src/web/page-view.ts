import type { Caller } from '../access/caller.ts'
import { presentActivity } from '../activity/activity.present.ts'
import { listActivity } from '../activity/activity.queries.ts'
import type { AppDeps } from '../app-deps.ts'
import { presentComment } from '../graph/comments/comments.present.ts'
import { listComments } from '../graph/comments/comments.queries.ts'
import type { AnyRecord } from '../graph/resources/load-record.ts'
import type { Names, PageParts } from './resource.view.ts'

/** What a page's lists are read with: the app and the viewer, as the API would read them. */
export interface PageLoad {
  readonly deps: AppDeps
  readonly caller: Caller
}

/** A page of its own: the lists it shows besides the record, then its title and body. */
export interface OwnPage {
  parts?(load: PageLoad, record: AnyRecord): Promise<PageParts>
  content(record: AnyRecord, parts: PageParts, names: Names): { title: string; body: string }
}

/** A resource shown inside another's page: the path (and `#anchor`) its URL opens. */
export interface AnchoredPage {
  anchor(record: AnyRecord, workspaceId: string): string
}

/** How the dashboard shows a kind at `/{workspace_id}/{kind}/{id}`. */
export type PageView = OwnPage | AnchoredPage

declare module '../catalogue/kind.ts' {
  interface KindParts {
    /** Its page in the dashboard. */
    page: PageView
  }
}

/** The longest list a page shows; enough at demo scale, paging can come when a page needs it. */
export const LIST_LIMIT = 200

const RECENT_ACTIVITY = 20

/** The newest activity of a project or on a resource, through the API's query. */
export async function recentActivity(
  { deps, caller }: PageLoad,
  filters: { project_id?: string; resource_id?: string },
): Promise<AnyRecord[]> {
  const rows = await listActivity(
    deps.db,
    caller.visibility,
    caller.readableKinds,
    filters,
    null,
    RECENT_ACTIVITY,
  )
  return rows.slice(0, RECENT_ACTIVITY).map((row) => presentActivity(row, deps.urls))
}

/** The comments on a resource, through the API's query. */
export async function commentsOn({ deps, caller }: PageLoad, resourceId: string) {
  const rows = await listComments(
    deps.db,
    caller.visibility,
    { resource_id: resourceId },
    null,
    LIST_LIMIT,
  )
  return rows.slice(0, LIST_LIMIT).map((row) => presentComment(row, deps.urls))
}

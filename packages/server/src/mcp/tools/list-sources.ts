import type { Reference } from '../../api/require-visible.ts'
import type { Scope } from '../../catalogue/scopes.ts'
import { createdPosition } from '../../db/keyset.ts'
import { listCanvases } from '../../graph/canvases/canvases.queries.ts'
import { listOkrs } from '../../graph/okrs/okrs.queries.ts'
import { listPeople, listTeams, namePosition } from '../../graph/people/people.queries.ts'
import { listProjects } from '../../graph/projects/projects.queries.ts'
import { PROJECT_STATUSES } from '../../graph/projects/projects.schemas.ts'
import { listTasks } from '../../graph/tasks/tasks.queries.ts'
import { TASK_STATUSES } from '../../graph/tasks/tasks.schemas.ts'
import type { CursorPosition } from '../../lib/cursor.ts'
import type { McpSession } from '../mcp-session.ts'

/** The filters the `list` tool takes; each type reads the ones that apply to it. */
export type ListFilters = {
  project_id?: string
  assignee_id?: string
  team_id?: string
  status?: string[]
}

/** One row of a list as the tool shows it: a cited item and a few facts. */
export interface ListItem {
  id: string
  type: string
  title: string
  url: string
  facts: Record<string, string | number | null>
  position: CursorPosition
}

/** How the `list` tool reads one type: the same queries as its `/v1` list, newest or by name. */
export interface ListSource {
  scope: Scope
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

const url = (session: McpSession, type: string, id: string) =>
  session.deps.urls.resource(session.caller.principal.workspaceId, type, id).url

/** Every type the `list` tool reads. */
export const LIST_SOURCES = {
  project: {
    scope: 'project:read',
    filters: ['status'],
    statuses: PROJECT_STATUSES,
    references: () => [],
    async load(session, filters, after, limit) {
      const { db } = session.deps
      const rows = await listProjects(db, session.caller.visibility, filters, after, limit)
      return rows.map((row) => ({
        id: row.id,
        type: 'project',
        title: row.name,
        url: url(session, 'project', row.id),
        facts: { status: row.status },
        position: createdPosition(row),
      }))
    },
  },
  task: {
    scope: 'task:read',
    filters: ['project_id', 'assignee_id', 'status'],
    statuses: TASK_STATUSES,
    references: (f) => [
      ['/project_id', 'project', f.project_id],
      ['/assignee_id', 'person', f.assignee_id],
    ],
    async load(session, filters, after, limit) {
      const { db } = session.deps
      const rows = await listTasks(db, session.caller.visibility, filters, after, limit)
      return rows.map((row) => ({
        id: row.id,
        type: 'task',
        title: row.title,
        url: url(session, 'task', row.id),
        facts: { status: row.status, due: row.due, assignee_id: row.assignee_id },
        position: createdPosition(row),
      }))
    },
  },
  canvas: {
    scope: 'canvas:read',
    filters: ['project_id'],
    references: (f) => [['/project_id', 'project', f.project_id]],
    async load(session, filters, after, limit) {
      const { visibility, readableKinds } = session.caller
      const rows = await listCanvases(
        session.deps.db,
        visibility,
        readableKinds,
        filters,
        after,
        limit,
      )
      return rows.map((row) => ({
        id: row.id,
        type: 'canvas',
        title: row.title,
        url: url(session, 'canvas', row.id),
        facts: { project_id: row.project_id },
        position: createdPosition(row),
      }))
    },
  },
  okr: {
    scope: 'okr:read',
    filters: ['project_id', 'team_id'],
    references: (f) => [
      ['/project_id', 'project', f.project_id],
      ['/team_id', 'team', f.team_id],
    ],
    async load(session, filters, after, limit) {
      const rows = await listOkrs(session.deps.db, session.caller.visibility, filters, after, limit)
      return rows.map((row) => ({
        id: row.id,
        type: 'okr',
        title: row.title,
        url: url(session, 'okr', row.id),
        facts: { session: row.session },
        position: createdPosition(row),
      }))
    },
  },
  person: {
    scope: 'people:read',
    filters: ['team_id'],
    references: (f) => [['/team_id', 'team', f.team_id]],
    async load(session, filters, after, limit) {
      const { db } = session.deps
      const rows = await listPeople(db, session.caller.visibility, filters, after, limit)
      return rows.map((row) => ({
        id: row.id,
        type: 'person',
        title: row.name,
        url: url(session, 'person', row.id),
        facts: { role: row.role },
        position: namePosition(row),
      }))
    },
  },
  team: {
    scope: 'people:read',
    filters: [],
    references: () => [],
    async load(session, _filters, after, limit) {
      const rows = await listTeams(session.deps.db, session.caller.visibility, {}, after, limit)
      return rows.map((row) => ({
        id: row.id,
        type: 'team',
        title: row.name,
        url: url(session, 'team', row.id),
        facts: {},
        position: namePosition(row),
      }))
    },
  },
} satisfies Record<string, ListSource>

/** A type the `list` tool reads. */
export type ListType = keyof typeof LIST_SOURCES

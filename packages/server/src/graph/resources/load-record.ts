import type { Static } from 'typebox'
import type { Caller } from '../../access/caller.ts'
import { presentActivity } from '../../activity/activity.present.ts'
import { findActivity } from '../../activity/activity.queries.ts'
import type { AppDeps } from '../../app-deps.ts'
import { idKind } from '../../lib/ids.ts'
import { presentCanvas } from '../canvases/canvases.present.ts'
import { listCanvases } from '../canvases/canvases.queries.ts'
import { presentComment } from '../comments/comments.present.ts'
import { listComments } from '../comments/comments.queries.ts'
import { presentCheckin, presentKeyResult } from '../okrs/okr-parts.present.ts'
import { findKeyResult, listCheckins } from '../okrs/okr-parts.queries.ts'
import { presentOkr } from '../okrs/okrs.present.ts'
import { listOkrs } from '../okrs/okrs.queries.ts'
import { presentPerson, presentTeam } from '../people/people.present.ts'
import { listPeople, listTeams } from '../people/people.queries.ts'
import { presentProject } from '../projects/projects.present.ts'
import { listProjects } from '../projects/projects.queries.ts'
import { presentTask } from '../tasks/tasks.present.ts'
import { listTasks } from '../tasks/tasks.queries.ts'
import { presentWorkspace } from '../workspace/workspace.present.ts'
import { findWorkspace } from '../workspace/workspace.queries.ts'
import type { AnyRecordSchema } from './any-record.schema.ts'

/** Any resource record, as `GET /v1/resources/:id` returns it. */
export type AnyRecord = Static<typeof AnyRecordSchema>

/**
 * The record of any resource the caller may open, dispatched on the id's prefix; null for ids
 * that are unknown, malformed, of another workspace or hidden (all the same to the caller).
 * Each loader applies the visibility filter in its own query.
 */
export async function loadRecord(
  deps: AppDeps,
  auth: Caller,
  id: string,
): Promise<AnyRecord | null> {
  const { db, urls } = deps
  const { visibility, readableKinds } = auth
  const ids = [id]
  switch (idKind(id)) {
    case 'workspace': {
      if (id !== visibility.principal.workspaceId) return null
      const { workspace, memberCount } = await findWorkspace(db, visibility)
      return presentWorkspace(workspace, memberCount, urls)
    }
    case 'person': {
      const [row] = await listPeople(db, visibility, { ids }, null, 1)
      return row ? presentPerson(row, visibility.principal.isMember, urls) : null
    }
    case 'team': {
      const [row] = await listTeams(db, visibility, { ids }, null, 1)
      return row ? presentTeam(row, urls) : null
    }
    case 'project': {
      const [row] = await listProjects(db, visibility, { ids }, null, 1)
      return row ? presentProject(row, urls) : null
    }
    case 'canvas': {
      const [row] = await listCanvases(db, visibility, readableKinds, { ids }, null, 1)
      return row ? presentCanvas(row, urls) : null
    }
    case 'task': {
      const [row] = await listTasks(db, visibility, { ids }, null, 1)
      return row ? presentTask(row, urls) : null
    }
    case 'okr': {
      const [row] = await listOkrs(db, visibility, { ids }, null, 1)
      return row ? presentOkr(row, urls) : null
    }
    case 'key_result': {
      const row = await findKeyResult(db, visibility, id)
      return row ? presentKeyResult(row, urls) : null
    }
    case 'checkin': {
      const [row] = await listCheckins(db, visibility, { ids }, 1)
      return row ? presentCheckin(row, urls) : null
    }
    case 'comment': {
      const [row] = await listComments(db, visibility, { ids }, null, 1)
      return row ? presentComment(row, urls) : null
    }
    case 'activity': {
      const [row] = await findActivity(db, visibility, readableKinds, ids)
      return row ? presentActivity(row, urls) : null
    }
    default:
      return null
  }
}

import Type from 'typebox'
import { ActivityRecord } from '../../activity/activity.schemas.ts'
import { CanvasRecord } from '../canvases/canvases.schemas.ts'
import { CommentRecord } from '../comments/comments.schemas.ts'
import { CheckinRecord, KeyResultRecord } from '../okrs/okr-parts.schemas.ts'
import { OkrRecord } from '../okrs/okrs.schemas.ts'
import { PersonRecord, TeamRecord } from '../people/people.schemas.ts'
import { ProjectRecord } from '../projects/projects.schemas.ts'
import { TaskRecord } from '../tasks/tasks.schemas.ts'
import { WorkspaceRecord } from '../workspace/workspace.schemas.ts'

/**
 * The records of the built-in kinds, as one type for the dashboard's views. The API's schema of
 * any record is built from the catalogue (`anyRecordSchema`), so that it names every kind.
 */
export const AnyRecordSchema = Type.Union(
  [
    WorkspaceRecord,
    PersonRecord,
    TeamRecord,
    ProjectRecord,
    CanvasRecord,
    TaskRecord,
    OkrRecord,
    KeyResultRecord,
    CheckinRecord,
    CommentRecord,
    ActivityRecord,
  ],
  { title: 'AnyRecord' },
)

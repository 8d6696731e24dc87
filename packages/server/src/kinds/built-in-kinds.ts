import { defineKind } from '../catalogue/catalogue.ts'
import { activityKind } from './activity/activity.kind.ts'
import { canvasKind } from './canvas/canvas.kind.ts'
import { commentKind } from './comment/comment.kind.ts'
import { checkinKind } from './okr/checkin.kind.ts'
import { keyResultKind } from './okr/key-result.kind.ts'
import { okrKind } from './okr/okr.kind.ts'
import { personKind } from './person/person.kind.ts'
import { projectKind } from './project/project.kind.ts'
import { taskKind } from './task/task.kind.ts'
import { teamKind } from './team/team.kind.ts'
import { workspaceKind } from './workspace/workspace.kind.ts'

/**
 * Adds the built-in kinds' parts to the catalogue. The app calls it as it is assembled, as does
 * every command that works on the graph without serving it; calling it again changes nothing.
 */
export function defineBuiltInKinds(): void {
  for (const kind of [
    workspaceKind,
    personKind,
    teamKind,
    projectKind,
    canvasKind,
    taskKind,
    okrKind,
    keyResultKind,
    checkinKind,
    commentKind,
    activityKind,
  ])
    defineKind(kind)
}

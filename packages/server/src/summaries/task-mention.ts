import { isOverdue } from '../lib/overdue.ts'
import { named, type Value } from './summary-builder.ts'
import type { Mentions } from './summary-context.ts'
import type { TaskLine } from './summary-queries.ts'

/** How task statuses read in statements. */
export const STATUS_WORDS: Record<string, string> = {
  todo: 'to do',
  in_progress: 'in progress',
  blocked: 'blocked',
  done: 'done',
}

/**
 * What a summary says of a task it lists, after the task's name, the same in every summary:
 * its status (unless the list already says it), its due date, `overdue` when it is (lib/overdue.ts),
 * and who is on it (unless the subject is that person): ` (to do, due 2026-11-01, overdue,
 * assigned to “Ada” [3])`. Empty when there is nothing to say.
 */
export function taskDetails(
  task: TaskLine,
  mentions: Mentions,
  today: string,
  options: { status: boolean; assignee: boolean },
): Value[] {
  const said: Value[] = []
  if (options.status) said.push(STATUS_WORDS[task.status] ?? task.status)
  if (task.due) said.push(`due ${task.due}`)
  if (isOverdue(task, today)) said.push('overdue')
  const who = options.assignee ? assigneeWords(task, mentions) : ''
  if (who !== '') said.push(who)
  if (said.length === 0) return []
  return [' (', ...said.flatMap((part, i) => (i === 0 ? [part] : [', ', part])), ')']
}

// Who a listed task is assigned to, said as the task summary's own first sentence and the
// attention answer say it: a person the caller may see is named and cited; `unassigned` only when
// nobody is (and only of open work, where it is the next question); a person the caller may not
// see is neither named nor denied. Calling that task unassigned would be false; leaving it
// unsaid tells, as those sentences do, that someone is on it, never who.
function assigneeWords(task: TaskLine, mentions: Mentions): Value {
  const assignee = mentions.ref(task.assignee_id)
  if (assignee) return ['assigned to ', named(assignee)]
  return task.assignee_id === null && task.status !== 'done' ? 'unassigned' : ''
}

/*
 * What "overdue" means wherever a task is shown (its record, search hits, summaries): due before
 * today's UTC day and not done, as the question word `overdue` reads it. It is worked out when
 * read, never stored, so it turns true on the morning after the due date with no write.
 */

/** Today's UTC day, written `YYYY-MM-DD`: the day a due date is compared with. */
export function utcDay(now: Date): string {
  return now.toISOString().slice(0, 10)
}

/** Whether a task is overdue on `today` (a UTC day, `YYYY-MM-DD`): due before it and not done. */
export function isOverdue(task: { status: string; due: string | null }, today: string): boolean {
  return task.status !== 'done' && task.due !== null && task.due < today
}

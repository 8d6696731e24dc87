import { html } from 'ghtml'
import { presentTask } from '../../graph/tasks/tasks.present.ts'
import { listTasks } from '../../graph/tasks/tasks.queries.ts'
import type { OwnPage } from '../../web/page-view.ts'
import { linkList, type Names, type Of, type PageParts } from '../../web/resource.view.ts'
import { badge, facts, items, linkTo } from '../../web/view-parts.ts'

/** A person's page: role, email and teams, then the tasks assigned to them. */
export const personPage: OwnPage = {
  async parts(load, record) {
    const { db, urls, clock } = load.deps
    const tasks = await listTasks(db, load.caller.visibility, { assignee_id: record.id }, null, 50)
    return { tasks: tasks.slice(0, 50).map((row) => presentTask(row, urls, clock.now())) }
  },
  content: (record, parts, names) => ({
    title: (record as Of<'person'>).name,
    body: personBody(record as Of<'person'>, parts, names),
  }),
}

function personBody(record: Of<'person'>, parts: PageParts, names: Names): string {
  const tasks = (parts.tasks ?? []) as Of<'task'>[]
  return html`!${facts([
    ['Role', badge(record.role)],
    ['Email', html`${record.email ?? '—'}`],
    ['Teams', linkList(names, record.teams)],
  ])}
<h2>Assigned tasks</h2>
!${items(
    tasks.map((item) => html`!${linkTo(names, item.id, item.title)} !${badge(item.status)}`),
    'No task you can see is assigned.',
  )}`
}

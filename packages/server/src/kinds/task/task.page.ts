import { html } from 'ghtml'
import { commentsOn, type OwnPage, recentActivity } from '../../web/page-view.ts'
import { activity, comments, type Names, type Of, type PageParts } from '../../web/resource.view.ts'
import { badge, facts, linkTo, when } from '../../web/view-parts.ts'

/** A task's page: its facts, then its comments and activity. */
export const taskPage: OwnPage = {
  async parts(load, record) {
    const [comments, activity] = await Promise.all([
      commentsOn(load, record.id),
      recentActivity(load, { resource_id: record.id }),
    ])
    return { comments, activity }
  },
  content: (record, parts, names) => ({
    title: (record as Of<'task'>).title,
    body: taskBody(record as Of<'task'>, parts, names),
  }),
}

function taskBody(record: Of<'task'>, parts: PageParts, names: Names): string {
  return html`!${record.description ? html`<p class="body-text">${record.description}</p>` : ''}
!${facts([
    ['Status', badge(record.status)],
    ['Assignee', linkTo(names, record.assignee_id)],
    ['Due', html`${record.due ?? '—'}`],
    ['Project', linkTo(names, record.project_id)],
    ['Parent task', linkTo(names, record.parent_id)],
    ['Canvas', linkTo(names, record.canvas_id)],
    ['Created by', linkTo(names, record.creator_id)],
    ['Completed', when(record.completed_at)],
  ])}
!${comments(parts, names)}
!${activity(parts, names)}`
}

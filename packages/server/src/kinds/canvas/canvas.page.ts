import { html } from 'ghtml'
import { commentsOn, type OwnPage, recentActivity } from '../../web/page-view.ts'
import { activity, comments, type Names, type Of, type PageParts } from '../../web/resource.view.ts'
import { facts, items, linkTo, when } from '../../web/view-parts.ts'

/** A canvas's page: its summary and facts, what it links to, then its comments and activity. */
export const canvasPage: OwnPage = {
  async parts(load, record) {
    const [comments, activity] = await Promise.all([
      commentsOn(load, record.id),
      recentActivity(load, { resource_id: record.id }),
    ])
    return { comments, activity }
  },
  content: (record, parts, names) => ({
    title: (record as Of<'canvas'>).title,
    body: canvasBody(record as Of<'canvas'>, parts, names),
  }),
}

function canvasBody(record: Of<'canvas'>, parts: PageParts, names: Names): string {
  return html`<p class="body-text">${record.summary}</p>
!${facts([
    ['Project', linkTo(names, record.project_id)],
    ['Owner', linkTo(names, record.owner_id)],
    ['Updated', when(record.updated_at)],
  ])}
<h2>Linked</h2>
!${items(
    record.links.filter((id) => names.has(id)).map((id) => linkTo(names, id)),
    'Nothing linked.',
  )}
!${comments(parts, names)}
!${activity(parts, names)}`
}

import { html } from 'ghtml'
import type { OwnPage } from '../../web/page-view.ts'
import type { Names, Of } from '../../web/resource.view.ts'
import { items, linkTo } from '../../web/view-parts.ts'

/** A team's page: its members. */
export const teamPage: OwnPage = {
  content: (record, _parts, names) => ({
    title: (record as Of<'team'>).name,
    body: teamBody(record as Of<'team'>, names),
  }),
}

function teamBody(record: Of<'team'>, names: Names): string {
  return html`<h2>Members</h2>
!${items(
    record.member_ids.filter((id) => names.has(id)).map((id) => linkTo(names, id)),
    'No member you can see.',
  )}`
}

import { html } from 'ghtml'
import { presentCheckin } from '../../graph/okrs/okr-parts.present.ts'
import { listCheckins } from '../../graph/okrs/okr-parts.queries.ts'
import type { OwnPage } from '../../web/page-view.ts'
import type { Names, Of, PageParts } from '../../web/resource.view.ts'
import { facts, items, linkTo, progress, when } from '../../web/view-parts.ts'

/** An objective's page: its facts, then each key result with its check-ins (each at its `#id`). */
export const okrPage: OwnPage = {
  async parts(load, record) {
    const { db, urls } = load.deps
    const checkins = await listCheckins(
      db,
      load.caller.visibility,
      { objective_id: record.id },
      100,
    )
    return { checkins: checkins.map((row) => presentCheckin(row, urls)) }
  },
  content: (record, parts, names) => ({
    title: (record as Of<'okr'>).title,
    body: okrBody(record as Of<'okr'>, parts, names),
  }),
}

function okrBody(record: Of<'okr'>, parts: PageParts, names: Names): string {
  const checkins = (parts.checkins ?? []) as Of<'checkin'>[]
  const results = record.key_results.map((kr) => {
    const own = checkins.filter((checkin) => checkin.key_result_id === kr.id)
    return html`<section id="${kr.id}" class="column" aria-labelledby="h-${kr.id}">
<h3 id="h-${kr.id}">${kr.title}</h3>
<p>!${progress(kr.progress)} · ${kr.current} of ${kr.target} ${kr.unit ?? ''}</p>
!${items(
      own.map(
        (checkin) =>
          html`<span id="${checkin.id}">${checkin.value} ${kr.unit ?? ''}, confidence ${checkin.confidence}${checkin.note ? ` · ${checkin.note}` : ''}</span><span class="aside">!${linkTo(names, checkin.author_id, '')} !${when(checkin.created_at)}</span>`,
      ),
      'No check-in yet.',
    )}</section>`
  })
  return html`!${facts([
    ['Session', html`${record.session}`],
    ['Progress', progress(record.progress)],
    ['Owner', linkTo(names, record.owner_id)],
    ['Team', linkTo(names, record.team_id)],
    ['Project', linkTo(names, record.project_id)],
  ])}
<h2>Key results</h2>
<div class="columns">!${results}</div>`
}

import { html } from 'ghtml'
import type { AccessReason } from '../access/access-reason.ts'
import type { AnyRecord } from '../graph/resources/load-record.ts'
import { TASK_STATUSES } from '../graph/tasks/tasks.schemas.ts'
import { whyYouCanSee } from './access-reasons.view.ts'
import { layout } from './layout.view.ts'
import type { Neighbour } from './neighbour-names.ts'
import { badge, facts, items, linkTo, progress, when } from './view-parts.ts'
import type { WebContext } from './web-context.ts'

type Names = ReadonlyMap<string, Neighbour>

/** The parts of a resource page beyond its record: its lists of neighbours. */
export interface PageParts {
  tasks?: AnyRecord[]
  canvases?: AnyRecord[]
  okrs?: AnyRecord[]
  activity?: AnyRecord[]
  comments?: AnyRecord[]
  checkins?: AnyRecord[]
}
type Of<T extends AnyRecord['type']> = Extract<AnyRecord, { type: T }>

/** The page of one resource the person may open: its facts, then its neighbours. */
export function resourcePage(
  web: WebContext,
  record: AnyRecord,
  parts: PageParts,
  names: Names,
  reasons: readonly AccessReason[] = [],
): string {
  const { title, body } = content(record, parts, names)
  const why = whyYouCanSee(record, reasons, names)
  return layout({
    title,
    web,
    body: html`!${crumbs(record, names)}<h1>${title}</h1>!${body}!${why}`,
  })
}

function content(record: AnyRecord, parts: PageParts, names: Names) {
  switch (record.type) {
    case 'project':
      return { title: record.name, body: project(record, parts, names) }
    case 'task':
      return { title: record.title, body: task(record, parts, names) }
    case 'canvas':
      return { title: record.title, body: canvas(record, parts, names) }
    case 'okr':
      return { title: record.title, body: okr(record, parts, names) }
    case 'person':
      return { title: record.name, body: person(record, parts, names) }
    case 'team':
      return { title: record.name, body: team(record, names) }
    default:
      return { title: record.id, body: '' }
  }
}

// The kind of page and the project it sits in, when there is one: the way back up.
function crumbs(record: AnyRecord, names: Names): string {
  const label =
    record.type === 'okr' ? 'OKR' : `${record.type[0]?.toUpperCase()}${record.type.slice(1)}`
  const projectId = 'project_id' in record ? record.project_id : null
  const project = projectId && names.get(projectId)
  return html`<p class="crumbs">!${project ? html`<a href="${project.path}">${project.name}</a> › ` : ''}${label}</p>`
}

function project(record: Of<'project'>, parts: PageParts, names: Names): string {
  const tasks = (parts.tasks ?? []) as Of<'task'>[]
  const columns = TASK_STATUSES.map((status) => {
    const inStatus = tasks.filter((task) => task.status === status)
    return html`<section class="column" aria-labelledby="status-${status}">
<h3 id="status-${status}">${status.replaceAll('_', ' ')} <span class="badge">${inStatus.length}</span></h3>
!${items(
      inStatus.map(
        (task) =>
          html`!${linkTo(names, task.id, task.title)}!${task.due ? html`<span class="aside">due ${task.due}</span>` : ''}`,
      ),
      'None',
    )}</section>`
  })
  return html`<p class="lede">${record.description}</p>
!${facts([
    ['Status', badge(record.status)],
    ['Owner', linkTo(names, record.owner_id)],
    ['Members', list(names, record.member_ids)],
    ['Teams', list(names, record.team_ids)],
  ])}
<h2>Tasks by status</h2>
<div class="columns">!${columns}</div>
<h2>Canvases</h2>
!${items(
    (parts.canvases ?? []).map((canvas) =>
      linkTo(names, canvas.id, (canvas as Of<'canvas'>).title),
    ),
    'No canvas.',
  )}
<h2>OKRs</h2>
!${items(
    ((parts.okrs ?? []) as Of<'okr'>[]).map(
      (okr) =>
        html`!${linkTo(names, okr.id, okr.title)}<span class="aside">!${progress(okr.progress)}</span>`,
    ),
    'No OKR.',
  )}
!${activity(parts, names)}`
}

function task(record: Of<'task'>, parts: PageParts, names: Names): string {
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

function canvas(record: Of<'canvas'>, parts: PageParts, names: Names): string {
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

function okr(record: Of<'okr'>, parts: PageParts, names: Names): string {
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

function person(record: Of<'person'>, parts: PageParts, names: Names): string {
  const tasks = (parts.tasks ?? []) as Of<'task'>[]
  return html`!${facts([
    ['Role', badge(record.role)],
    ['Email', html`${record.email ?? '—'}`],
    ['Teams', list(names, record.teams)],
  ])}
<h2>Assigned tasks</h2>
!${items(
    tasks.map((item) => html`!${linkTo(names, item.id, item.title)} !${badge(item.status)}`),
    'No task you can see is assigned.',
  )}`
}

function team(record: Of<'team'>, names: Names): string {
  return html`<h2>Members</h2>
!${items(
    record.member_ids.filter((id) => names.has(id)).map((id) => linkTo(names, id)),
    'No member you can see.',
  )}`
}

function comments(parts: PageParts, names: Names): string {
  const all = (parts.comments ?? []) as Of<'comment'>[]
  const rendered = all.map(
    (comment) => html`<article class="comment" id="${comment.id}">
<header>!${linkTo(names, comment.author_id, 'Someone')} · !${when(comment.created_at)}</header>
<p class="body-text">${comment.body}</p></article>`,
  )
  return html`<h2>Comments</h2>!${rendered.length ? rendered.join('') : html`<p class="empty">No comment yet.</p>`}`
}

function activity(parts: PageParts, names: Names): string {
  const entries = ((parts.activity ?? []) as Of<'activity'>[]).map(
    (entry) =>
      html`!${linkTo(names, entry.actor_id, 'Someone')} ${entry.verb.replaceAll('_', ' ')} ${entry.subject_title ?? entry.subject_type}<span class="aside">!${when(entry.created_at)}</span>`,
  )
  return html`<h2>Recent activity</h2>!${items(entries, 'Nothing yet.')}`
}

function list(names: Names, ids: readonly string[]): string {
  const shown = ids.filter((id) => names.has(id))
  return shown.length ? shown.map((id) => linkTo(names, id)).join(', ') : '—'
}

import { html } from 'ghtml'
import { presentCanvas } from '../../graph/canvases/canvases.present.ts'
import { listCanvases } from '../../graph/canvases/canvases.queries.ts'
import { presentOkr } from '../../graph/okrs/okrs.present.ts'
import { listOkrs } from '../../graph/okrs/okrs.queries.ts'
import { presentTask } from '../../graph/tasks/tasks.present.ts'
import { listTasks } from '../../graph/tasks/tasks.queries.ts'
import { TASK_STATUSES } from '../../graph/tasks/tasks.schemas.ts'
import { LIST_LIMIT, type OwnPage, recentActivity } from '../../web/page-view.ts'
import { activity, linkList, type Names, type Of, type PageParts } from '../../web/resource.view.ts'
import { badge, facts, items, linkTo, progress } from '../../web/view-parts.ts'

/** A project's page: its facts, its tasks by status, its canvases and OKRs, and recent activity. */
export const projectPage: OwnPage = {
  async parts(load, record) {
    const { db, urls } = load.deps
    const { visibility, readableKinds } = load.caller
    const filters = { project_id: record.id }
    const [tasks, canvases, okrs, activity] = await Promise.all([
      listTasks(db, visibility, filters, null, LIST_LIMIT),
      listCanvases(db, visibility, readableKinds, filters, null, LIST_LIMIT),
      listOkrs(db, visibility, filters, null, LIST_LIMIT),
      recentActivity(load, filters),
    ])
    return {
      tasks: tasks.slice(0, LIST_LIMIT).map((row) => presentTask(row, urls, load.deps.clock.now())),
      canvases: canvases.slice(0, LIST_LIMIT).map((row) => presentCanvas(row, urls)),
      okrs: okrs.slice(0, LIST_LIMIT).map((row) => presentOkr(row, urls, load.deps.clock.now())),
      activity,
    }
  },
  content: (record, parts, names) => ({
    title: (record as Of<'project'>).name,
    body: projectBody(record as Of<'project'>, parts, names),
  }),
}

function projectBody(record: Of<'project'>, parts: PageParts, names: Names): string {
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
    ['Members', linkList(names, record.member_ids)],
    ['Teams', linkList(names, record.team_ids)],
  ])}
<p><a href="/projects/${record.id}/members">Members and who may open it</a></p>
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

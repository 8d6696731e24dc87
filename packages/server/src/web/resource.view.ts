import { html } from 'ghtml'
import type { AccessReason } from '../access/access-reason.ts'
import type { AnyRecord } from '../graph/resources/load-record.ts'
import { whyYouCanSee } from './access-reasons.view.ts'
import { layout } from './layout.view.ts'
import type { Neighbour } from './neighbour-names.ts'
import { items, linkTo, when } from './view-parts.ts'
import type { WebContext } from './web-context.ts'

/** The names and pages of the neighbours a page may link to. */
export type Names = ReadonlyMap<string, Neighbour>

/** The parts of a resource page beyond its record: its lists of neighbours. */
export interface PageParts {
  tasks?: AnyRecord[]
  canvases?: AnyRecord[]
  okrs?: AnyRecord[]
  activity?: AnyRecord[]
  comments?: AnyRecord[]
  checkins?: AnyRecord[]
}
/** The record of one built-in kind. */
export type Of<T extends AnyRecord['type']> = Extract<AnyRecord, { type: T }>

/**
 * The page of one resource the person may open: the way back up, its kind's title and body (its
 * `page` part), then why the person may see it.
 */
export function resourcePage(
  web: WebContext,
  record: AnyRecord,
  content: { title: string; body: string },
  names: Names,
  reasons: readonly AccessReason[] = [],
): string {
  const { title, body } = content
  const why = whyYouCanSee(record, reasons, names)
  return layout({
    title,
    web,
    body: html`!${crumbs(record, names)}<h1>${title}</h1>!${body}!${why}`,
  })
}

// The kind of page and the project it sits in, when there is one: the way back up.
function crumbs(record: AnyRecord, names: Names): string {
  const label =
    record.type === 'okr' ? 'OKR' : `${record.type[0]?.toUpperCase()}${record.type.slice(1)}`
  const projectId = 'project_id' in record ? record.project_id : null
  const project = projectId && names.get(projectId)
  return html`<p class="crumbs">!${project ? html`<a href="${project.path}">${project.name}</a> › ` : ''}${label}</p>`
}

/** The comments section of a page. */
export function comments(parts: PageParts, names: Names): string {
  const all = (parts.comments ?? []) as Of<'comment'>[]
  const rendered = all.map(
    (comment) => html`<article class="comment" id="${comment.id}">
<header>!${linkTo(names, comment.author_id, 'Someone')} · !${when(comment.created_at)}</header>
<p class="body-text">${comment.body}</p></article>`,
  )
  return html`<h2>Comments</h2>!${rendered.length ? rendered.join('') : html`<p class="empty">No comment yet.</p>`}`
}

/** The recent-activity section of a page. */
export function activity(parts: PageParts, names: Names): string {
  const entries = ((parts.activity ?? []) as Of<'activity'>[]).map(
    (entry) =>
      html`!${linkTo(names, entry.actor_id, 'Someone')} ${entry.verb.replaceAll('_', ' ')} ${entry.subject_title ?? entry.subject_type}<span class="aside">!${when(entry.created_at)}</span>`,
  )
  return html`<h2>Recent activity</h2>!${items(entries, 'Nothing yet.')}`
}

/** Links to the ids the person may open, comma-separated; a dash when there is none. */
export function linkList(names: Names, ids: readonly string[]): string {
  const shown = ids.filter((id) => names.has(id))
  return shown.length ? shown.map((id) => linkTo(names, id)).join(', ') : '—'
}

import { html } from 'ghtml'
import type { Static } from 'typebox'
import type { AuditRecord } from '../audit/audit.schemas.ts'
import { AUDIT_ACTIONS } from '../db/tables/audit.table.ts'
import { type FormProblem, fieldError, invalidAttributes, problemSummary } from './form-problems.ts'
import { layout } from './layout.view.ts'
import { when } from './view-parts.ts'
import type { WebContext } from './web-context.ts'

/** An audit entry as the API presents it to this reader (redaction already applied). */
export type AuditEntry = Static<typeof AuditRecord>

/** The filters of the page, as typed in its GET form. */
export type AuditFilterValues = Partial<
  Record<'token_id' | 'actor_id' | 'action' | 'resource_id' | 'since' | 'until', string>
>

/** What the audit page shows. */
export interface AuditPageInput {
  readonly filters: AuditFilterValues
  readonly entries: readonly AuditEntry[]
  /** The address of the next page (the same filters and the API's cursor), or null. */
  readonly next: string | null
  readonly problem?: FormProblem | null
}

/** `/audit?…` with these filters: every filtered view is a link. */
export function auditHref(filters: AuditFilterValues & { cursor?: string }): string {
  const query = new URLSearchParams(
    Object.entries(filters).filter((entry): entry is [string, string] => Boolean(entry[1])),
  ).toString()
  return query ? `/audit?${query}` : '/audit'
}

/** `/audit`: the workspace's audit log for owners and admins, filtered and paged. */
export function auditPage(web: WebContext, input: AuditPageInput): string {
  const problem = input.problem ?? null
  return layout({
    title: 'Audit log',
    web,
    current: '/audit',
    body: html`<h1>Audit log</h1>
<p class="lede">Every change in the workspace, newest first: who, through what, when, and the
diff. Entries about what you cannot open show only their action and changed fields.</p>
!${problemSummary(problem)}
<form method="get" action="/audit" class="filters-form"><div class="filters">
!${textFilter('actor_id', 'Actor id', input.filters, problem)}
!${textFilter('token_id', 'Token id', input.filters, problem)}
!${textFilter('resource_id', 'Resource id', input.filters, problem)}
<div><label for="action">Action</label>
<select id="action" name="action"><option value="">Any action</option>!${AUDIT_ACTIONS.map(
      (action) =>
        html`<option value="${action}"!${input.filters.action === action ? ' selected' : ''}>${action}</option>`,
    )}</select></div>
!${timeFilter('since', 'From (UTC)', input.filters, problem)}
!${timeFilter('until', 'Before (UTC)', input.filters, problem)}
</div><button type="submit">Filter</button> <a href="/audit">Clear filters</a></form>
<h2>Entries</h2>
!${input.entries.length ? input.entries.map(entrySection) : html`<p class="empty">No entries.</p>`}
!${input.next ? html`<p><a href="${input.next}" rel="next">Older entries</a></p>` : ''}`,
  })
}

function textFilter(
  name: keyof AuditFilterValues,
  label: string,
  filters: AuditFilterValues,
  problem: FormProblem | null,
): string {
  return html`<div><label for="${name}">${label}</label>
<input id="${name}" name="${name}" type="text" value="${filters[name] ?? ''}"!${invalidAttributes(problem, `/${name}`, `${name}-error`)}>
!${fieldError(problem, `/${name}`, `${name}-error`)}</div>`
}

function timeFilter(
  name: 'since' | 'until',
  label: string,
  filters: AuditFilterValues,
  problem: FormProblem | null,
): string {
  const value = (filters[name] ?? '').replace(/Z$/, '').slice(0, 16)
  return html`<div><label for="${name}">${label}</label>
<input id="${name}" name="${name}" type="datetime-local" value="${value}"!${invalidAttributes(problem, `/${name}`, `${name}-error`)}>
!${fieldError(problem, `/${name}`, `${name}-error`)}</div>`
}

// A session's id already names its kind (`web_session:…`); a key's id does not.
function tokenLabel(entry: AuditEntry): string {
  const id = entry.token_id ?? ''
  const kind = entry.token_kind
  return !kind || id.startsWith(`${kind}:`) ? id : `${kind} ${id}`
}

function entrySection(entry: AuditEntry): string {
  const token = entry.token_id
    ? html`<a href="${auditHref({ token_id: entry.token_id })}">${tokenLabel(entry)}</a>`
    : html`—`
  const resource = entry.redacted
    ? html`${entry.resource_type ?? '—'} (withheld: you cannot open it now)`
    : entry.resource_id
      ? html`${entry.resource_type ?? ''} <a href="${auditHref({ resource_id: entry.resource_id })}">${entry.resource_id}</a>`
      : html`${entry.resource_type ?? '—'}`
  return html`<section class="audit-entry" aria-labelledby="${entry.id}">
<h3 id="${entry.id}">${entry.action}</h3>
<dl class="meta">
<dt>When</dt><dd>!${when(entry.created_at)}</dd>
<dt>Who</dt><dd><a href="${auditHref({ actor_id: entry.actor_id })}">${entry.actor_id}</a></dd>
<dt>Through</dt><dd>${entry.via}, !${token}</dd>
<dt>Resource</dt><dd>!${resource}</dd>
</dl>
!${diffTable(entry)}
</section>`
}

// The diff as before/after rows; a redacted entry names its changed fields and nothing else.
function diffTable(entry: AuditEntry): string {
  if (!entry.diff) {
    return entry.changed_fields.length
      ? html`<p>Changed fields: ${entry.changed_fields.join(', ')}</p>`
      : ''
  }
  const rows = Object.entries(entry.diff)
  if (rows.length === 0) return ''
  return html`<table class="data"><caption class="visually-hidden">Changes of ${entry.action}</caption>
<thead><tr><th scope="col">Field</th><th scope="col">Before</th><th scope="col">After</th></tr></thead>
<tbody>!${rows.map(
    ([field, { from, to }]) =>
      html`<tr><th scope="row">${field}</th><td>!${shown(from)}</td><td>!${shown(to)}</td></tr>`,
  )}</tbody></table>`
}

function shown(value: unknown): string {
  if (value === null || value === undefined) return html`<span class="aside">—</span>`
  return html`<code>${typeof value === 'string' ? value : JSON.stringify(value)}</code>`
}

import { html } from 'ghtml'
import { AUDIT_ACTIONS } from '../db/tables/audit.table.ts'
import type { AuditEntry, AuditFilterValues, AuditNames } from './audit-names.ts'
import { type FormProblem, fieldError, invalidAttributes, problemSummary } from './form-problems.ts'
import { layout } from './layout.view.ts'
import { tableBox, when } from './view-parts.ts'
import type { WebContext } from './web-context.ts'

/** What the audit page shows. */
export interface AuditPageInput {
  readonly filters: AuditFilterValues
  readonly entries: readonly AuditEntry[]
  /** The address of the next page (the same filters and the API's cursor), or null. */
  readonly next: string | null
  readonly problem?: FormProblem | null
  readonly names: AuditNames
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
!${choiceFilter('actor_id', 'Who', 'Anyone', input.filters, actorOptions(input.names))}
!${choiceFilter('token_id', 'Credential', 'Any credential', input.filters, tokenOptions(input.names))}
!${resourceFilter(input.filters, input.names)}
<div><label for="action">Action</label>
<select id="action" name="action"><option value="">Any action</option>!${AUDIT_ACTIONS.map(
      (action) =>
        html`<option value="${action}"!${input.filters.action === action ? ' selected' : ''}>${action}</option>`,
    )}</select></div>
!${timeFilter('since', 'From (UTC)', input.filters, problem)}
!${timeFilter('until', 'Before (UTC)', input.filters, problem)}
</div><button type="submit">Filter</button> <a href="/audit">Clear filters</a></form>
<h2>Entries</h2>
!${input.entries.length ? input.entries.map((entry) => entrySection(entry, input.names)) : html`<p class="empty">No entries.</p>`}
!${input.next ? html`<p><a href="${input.next}" rel="next">Older entries</a></p>` : ''}`,
  })
}

type Choice = { value: string; label: string; group: string }

// A <select> of names whose values are the ids the query takes. An id in the address that is not
// among the choices (beyond the list, or typed by hand) stays chosen, shown as itself.
function choiceFilter(
  name: 'actor_id' | 'token_id',
  label: string,
  any: string,
  filters: AuditFilterValues,
  choices: readonly Choice[],
): string {
  const current = filters[name] ?? ''
  const known = choices.some((choice) => choice.value === current)
  const groups = [...new Set(choices.map((choice) => choice.group))]
  return html`<div><label for="${name}">${label}</label>
<select id="${name}" name="${name}"><option value="">${any}</option>!${
    current && !known ? html`<option value="${current}" selected>${current}</option>` : ''
  }!${groups.map(
    (group) =>
      html`<optgroup label="${group}">!${choices
        .filter((choice) => choice.group === group)
        .map(
          (choice) =>
            html`<option value="${choice.value}"!${choice.value === current ? ' selected' : ''}>${choice.label}</option>`,
        )}</optgroup>`,
  )}</select></div>`
}

function actorOptions(names: AuditNames): Choice[] {
  return names.actorChoices.map((actor) => ({
    value: actor.id,
    label: actor.name,
    group: actor.kind === 'person' ? 'People' : 'Integrations',
  }))
}

function tokenOptions(names: AuditNames): Choice[] {
  return names.tokenChoices.map((token) => ({
    value: token.id,
    label: token.name,
    group: token.kind === 'api_key' ? 'API keys' : 'Workspace tokens',
  }))
}

// No box for a resource id: an entry's "its entries" link sets it; the form keeps it, by name.
function resourceFilter(filters: AuditFilterValues, names: AuditNames): string {
  const id = filters.resource_id
  if (!id) return ''
  const resource = names.resources.get(id)
  return html`<div><input type="hidden" name="resource_id" value="${id}">
<p class="filter-note">About !${resource ? html`<a href="${resource.path}">${resource.name}</a>` : html`<code>${id}</code>`}
(<a href="${auditHref({ ...filters, resource_id: undefined })}">any resource</a>)</p></div>`
}

function tokenKindLabel(kind: string | null | undefined): string {
  if (kind === 'api_key') return 'API key'
  if (kind === 'workspace_token') return 'workspace token'
  if (kind === 'oauth') return 'OAuth app'
  if (kind === 'web_session') return 'dashboard session'
  return kind ?? 'credential'
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

// The credential by its name and kind; a dashboard session has no name but its kind.
function tokenLabel(entry: AuditEntry, names: AuditNames): string {
  const kind = tokenKindLabel(entry.token_kind)
  const name = entry.token_id ? names.tokens.get(entry.token_id) : undefined
  return name ? `${kind} “${name}”` : kind
}

function entrySection(entry: AuditEntry, names: AuditNames): string {
  const token = entry.token_id
    ? html`<a href="${auditHref({ token_id: entry.token_id })}">${tokenLabel(entry, names)}</a>`
    : html`—`
  const actor = names.actors.get(entry.actor_id)
  const resource = entry.redacted
    ? html`${entry.resource_type ?? '—'} (withheld: you cannot open it now)`
    : entry.resource_id
      ? resourceCell(entry.resource_type, entry.resource_id, names)
      : html`${entry.resource_type ?? '—'}`
  return html`<section class="audit-entry" aria-labelledby="${entry.id}">
<h3 id="${entry.id}">${entry.action}</h3>
<dl class="meta">
<dt>When</dt><dd>!${when(entry.created_at)}</dd>
<dt>Who</dt><dd><a href="${auditHref({ actor_id: entry.actor_id })}">${actor ?? entry.actor_id}</a></dd>
<dt>Through</dt><dd>${entry.via}, !${token}</dd>
<dt>Resource</dt><dd>!${resource}</dd>
</dl>
!${diffTable(entry, names)}
</section>`
}

// A resource by name, linking to its page, then to its entries; one without a page by its id.
function resourceCell(type: string | null, id: string, names: AuditNames): string {
  const resource = names.resources.get(id)
  const entries = html`<a href="${auditHref({ resource_id: id })}">its entries</a>`
  if (!resource) return html`${type ?? ''} <code>${id}</code> · !${entries}`
  return html`${type ?? ''} <a href="${resource.path}">${resource.name}</a> · !${entries}`
}

// The diff as before/after rows; a redacted entry names its changed fields and nothing else.
function diffTable(entry: AuditEntry, names: AuditNames): string {
  if (!entry.diff) {
    return entry.changed_fields.length
      ? html`<p>Changed fields: ${entry.changed_fields.join(', ')}</p>`
      : ''
  }
  const rows = Object.entries(entry.diff)
  if (rows.length === 0) return ''
  return tableBox(
    `Changes of ${entry.action}`,
    html`<table class="data diff"><caption class="visually-hidden">Changes of ${entry.action}</caption>
<thead><tr><th scope="col">Field</th><th scope="col">Before</th><th scope="col">After</th></tr></thead>
<tbody>!${rows.map(
      ([field, { from, to }]) =>
        html`<tr><th scope="row">${field}</th><td>!${shown(from, names)}</td><td>!${shown(to, names)}</td></tr>`,
    )}</tbody></table>`,
  )
}

function shown(value: unknown, names: AuditNames): string {
  if (value === null || value === undefined) return html`<span class="aside">—</span>`
  const named = typeof value === 'string' ? names.resources.get(value) : undefined
  if (named) return html`<a href="${named.path}">${named.name}</a> <code class="id">${value}</code>`
  return html`<code>${typeof value === 'string' ? value : JSON.stringify(value)}</code>`
}

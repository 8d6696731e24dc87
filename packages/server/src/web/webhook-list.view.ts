import { html } from 'ghtml'
import type { Static } from 'typebox'
import { EVENT_TYPES } from '../catalogue/verbs.ts'
import type { WebhookRecord } from '../webhooks/webhooks.schemas.ts'
import { type FormProblem, fieldError, invalidAttributes, problemSummary } from './form-problems.ts'
import { csrfForm, layout } from './layout.view.ts'
import { badge, tableBox, when } from './view-parts.ts'
import type { WebContext } from './web-context.ts'

/** An endpoint as the API presents it. */
export type Endpoint = Static<typeof WebhookRecord>

/** What the create form shows again after a refusal. */
export interface CreateValues {
  readonly url: string
  readonly events: readonly string[]
  readonly description: string
}

const NO_VALUES: CreateValues = { url: '', events: EVENT_TYPES, description: '' }

/** The endpoint's status, with the reason it is disabled. */
export function endpointStatus(endpoint: Endpoint): string {
  if (endpoint.status === 'active') return badge('active')
  return html`!${badge('disabled')} ${(endpoint.disabled_reason ?? '').replaceAll('_', ' ')}`
}

/** The event types as checkboxes, checked as given; `prefix` keeps ids unique per form. */
export function eventCheckboxes(
  checked: readonly string[],
  prefix: string,
  problem: FormProblem | null,
): string {
  return html`<fieldset!${invalidAttributes(problem, '/events', `${prefix}-events-error`)}><legend>Events</legend>
!${EVENT_TYPES.map(
    (
      type,
    ) => html`<p><input type="checkbox" name="events" value="${type}" id="${prefix}-${type}"!${checked.includes(type) ? ' checked' : ''}>
<label for="${prefix}-${type}">${type}</label></p>`,
  )}
</fieldset>
!${fieldError(problem, '/events', `${prefix}-events-error`)}`
}

/** `/webhooks`: the person's endpoints and the form that registers one. */
export function webhookListPage(
  web: WebContext,
  endpoints: readonly Endpoint[],
  problem: FormProblem | null = null,
  values: CreateValues = NO_VALUES,
): string {
  const rows = endpoints.map(
    (endpoint) => html`<tr><td><a href="/webhooks/${endpoint.id}">${endpoint.url}</a>
!${endpoint.description ? html`<br><span class="aside">${endpoint.description}</span>` : ''}</td>
<td>${endpoint.events.join(', ')}</td><td>!${endpointStatus(endpoint)}</td>
<td>!${when(endpoint.created_at)}</td></tr>`,
  )
  return layout({
    title: 'Webhooks',
    web,
    current: '/webhooks',
    body: html`<h1>Webhooks</h1>
<p class="lede">Endpoints you own. Each receives the chosen events about what you may open, signed
with its secret (see docs/webhooks.md).</p>
!${
      rows.length
        ? tableBox(
            'Your endpoints',
            html`<table class="data"><caption class="visually-hidden">Your endpoints</caption>
<thead><tr><th scope="col">URL</th><th scope="col">Events</th><th scope="col">Status</th>
<th scope="col">Created</th></tr></thead><tbody>!${rows}</tbody></table>`,
          )
        : html`<p class="empty">You have no webhook endpoints yet.</p>`
    }
<h2 id="create">Add an endpoint</h2>
!${problemSummary(problem)}
!${csrfForm(
      '/webhooks',
      web.csrf,
      html`<label for="url">URL</label>
<input id="url" name="url" type="url" required maxlength="2048" value="${values.url}"
 placeholder="https://example.com/hooks/workgraph"!${invalidAttributes(problem, '/url', 'url-error')}>
!${fieldError(problem, '/url', 'url-error')}
!${eventCheckboxes(values.events, 'new', problem)}
<label for="description">Description (optional)</label>
<input id="description" name="description" type="text" maxlength="500" value="${values.description}"!${invalidAttributes(problem, '/description', 'description-error')}>
!${fieldError(problem, '/description', 'description-error')}
<button type="submit">Add endpoint</button>`,
    )}`,
  })
}

/** The signing secret, shown this once after creating or rotating, with a copy button. */
export function secretPage(
  web: WebContext,
  endpoint: Endpoint,
  secret: string,
  rotation: { previousExpiresAt: string | null } | null = null,
): string {
  const rotated = rotation !== null
  const previousExpiresAt = rotation?.previousExpiresAt ?? null
  return layout({
    title: 'Signing secret',
    web,
    current: '/webhooks',
    body: html`<h1>Signing secret</h1>
<p class="notice" role="status">!${rotated ? 'The secret was rotated.' : 'The endpoint was added.'}
Copy the secret now: it is not shown again.</p>
<p>Endpoint: <a href="/webhooks/${endpoint.id}">${endpoint.url}</a></p>
<code class="secret" id="secret">${secret}</code>
<button type="button" data-copy="secret" hidden>Copy secret</button>
!${previousExpiresAt ? html`<p>The previous secret keeps signing <code>x-service-signature-previous</code> until !${when(previousExpiresAt)}.</p>` : ''}
<p><a href="/webhooks/${endpoint.id}">Go to the endpoint</a></p>`,
  })
}

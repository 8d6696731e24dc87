import { html } from 'ghtml'
import type { Static } from 'typebox'
import type { DeliveryRecord } from '../webhooks/webhooks.schemas.ts'
import { type FormProblem, fieldError, invalidAttributes, problemSummary } from './form-problems.ts'
import { csrfForm, layout } from './layout.view.ts'
import { facts, tableBox, when } from './view-parts.ts'
import type { WebContext } from './web-context.ts'
import { type Endpoint, endpointStatus, eventCheckboxes } from './webhook-list.view.ts'

/** A delivery with its attempts' summaries, as the API lists them. */
export type Delivery = Static<typeof DeliveryRecord>

/** The form a refusal belongs to, so its message shows beside that form's fields. */
export type EndpointForm = 'events' | 'rotate' | 'recover' | 'action'

/** What the endpoint page shows besides the endpoint. */
export interface EndpointPageInput {
  readonly endpoint: Endpoint
  readonly deliveries: readonly Delivery[]
  /** A confirmation after a change (a fixed text chosen by the route, never echoed input). */
  readonly notice?: string | null
  readonly problem?: { form: EndpointForm; problem: FormProblem } | null
}

// The API's grace periods (0..7 days), as the few choices a person needs.
const GRACE_CHOICES: [number, string][] = [
  [0, 'None: the old secret stops now'],
  [3_600, '1 hour'],
  [86_400, '24 hours (default)'],
  [604_800, '7 days'],
]

/** `/webhooks/:id`: an endpoint, what can be done with it, and its latest deliveries. */
export function endpointPage(web: WebContext, input: EndpointPageInput): string {
  const { endpoint } = input
  const base = `/webhooks/${endpoint.id}`
  const problemOf = (form: EndpointForm) =>
    input.problem?.form === form ? input.problem.problem : null
  const active = endpoint.status === 'active'
  return layout({
    title: `Webhook ${endpoint.url}`,
    web,
    current: '/webhooks',
    body: html`<p class="crumbs"><a href="/webhooks">Webhooks</a></p>
<h1>${endpoint.url}</h1>
!${input.notice ? html`<p class="notice" role="status">${input.notice}</p>` : ''}
!${problemSummary(problemOf('action'))}
!${facts([
      ['Status', endpointStatus(endpoint)],
      ['Description', html`${endpoint.description ?? '—'}`],
      ['Events', html`${endpoint.events.join(', ')}`],
      ['Last success', when(endpoint.last_success_at)],
      ['Failing since', when(endpoint.failing_since)],
      ['Previous secret until', when(endpoint.previous_secret_expires_at)],
      ['Created', when(endpoint.created_at)],
    ])}
<div class="actions">
!${csrfForm(
      `${base}/status`,
      web.csrf,
      html`<input type="hidden" name="status" value="${active ? 'disabled' : 'active'}">
<button type="submit"!${active ? ' class="danger-outline"' : ''}>${active ? 'Disable' : 'Enable'}</button>`,
    )}
!${active ? csrfForm(`${base}/test`, web.csrf, html`<button type="submit">Send a test event</button>`) : ''}
</div>
<h2 id="events">Events</h2>
!${problemSummary(problemOf('events'))}
!${csrfForm(
      `${base}/events`,
      web.csrf,
      html`!${eventCheckboxes(endpoint.events, 'edit', problemOf('events'))}
<button type="submit">Save events</button>`,
    )}
<h2 id="rotate">Rotate the signing secret</h2>
!${problemSummary(rotateProblem(problemOf('rotate'), endpoint))}
!${csrfForm(
      `${base}/rotate`,
      web.csrf,
      html`<label for="grace">Keep the previous secret signing for</label>
<select id="grace" name="grace_period_seconds">!${GRACE_CHOICES.map(
        ([seconds, label]) =>
          html`<option value="${seconds}"!${seconds === 86_400 ? ' selected' : ''}>${label}</option>`,
      )}</select>
!${fieldError(problemOf('rotate'), '/grace_period_seconds', 'grace-error')}
<label class="check"><input type="checkbox" name="force" value="true"> End the previous secret
now, if it is still in its grace period</label>
<button type="submit">Rotate secret</button>`,
    )}
<h2 id="deliveries">Deliveries</h2>
!${deliveryTable(base, input.deliveries)}
<h2 id="recover">Recover</h2>
<p>Send again every failed or skipped delivery since a time (UTC).</p>
!${problemSummary(problemOf('recover'))}
!${csrfForm(
      `${base}/recover`,
      web.csrf,
      html`<label for="since">Since (UTC)</label>
<input id="since" name="since" type="datetime-local" required!${invalidAttributes(problemOf('recover'), '/since', 'since-error')}>
!${fieldError(problemOf('recover'), '/since', 'since-error')}
<button type="submit">Recover deliveries</button>`,
    )}`,
  })
}

/**
 * The API's conflict names its JSON field (`"force": true`); the form's reader gets what to tick
 * instead. Other refusals keep their own words.
 */
function rotateProblem(problem: FormProblem | null, endpoint: Endpoint): FormProblem | null {
  if (problem?.status !== 409) return problem
  const until = endpoint.previous_secret_expires_at
  const wait = until ? `, or wait until ${until.slice(0, 19).replace('T', ' ')} UTC` : ''
  return {
    ...problem,
    detail: `The previous secret is still in its grace period. Tick “End the previous secret now” to end it and rotate${wait}.`,
  }
}

function deliveryTable(base: string, deliveries: readonly Delivery[]): string {
  if (deliveries.length === 0) return html`<p class="empty">No deliveries yet.</p>`
  const rows = deliveries.map(
    (
      delivery,
    ) => html`<tr><td><a href="${base}/deliveries/${delivery.id}">${delivery.event_type}</a></td>
<td>${delivery.status}!${delivery.last_error ? html` (${delivery.last_error})` : ''}</td>
<td>${delivery.attempts.length}</td><td>!${when(delivery.created_at)}</td></tr>`,
  )
  return tableBox(
    'Latest deliveries',
    html`<table class="data"><caption class="visually-hidden">Latest deliveries</caption>
<thead><tr><th scope="col">Event</th><th scope="col">Status</th><th scope="col">Attempts</th>
<th scope="col">Created</th></tr></thead><tbody>!${rows}</tbody></table>`,
  )
}

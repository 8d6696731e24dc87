import { html } from 'ghtml'
import type { Static } from 'typebox'
import type { AttemptDetail } from '../webhooks/webhooks.schemas.ts'
import { type FormProblem, problemSummary } from './form-problems.ts'
import { csrfForm, layout } from './layout.view.ts'
import { facts, when } from './view-parts.ts'
import type { WebContext } from './web-context.ts'
import type { Delivery } from './webhook-endpoint.view.ts'
import type { Endpoint } from './webhook-list.view.ts'

/** One attempt with its exact request and the start of the answer, as the API shows it. */
export type Attempt = Static<typeof AttemptDetail>

// A page shows the start of long bodies; the API (`GET …/deliveries/:id`) has them whole.
const SHOWN_BYTES = 8 * 1024

/** `/webhooks/:id/deliveries/:delivery_id`: every attempt's request and response bytes. */
export function deliveryPage(
  web: WebContext,
  input: {
    endpoint: Endpoint
    delivery: Delivery
    attempts: readonly Attempt[]
    notice?: string | null
    problem?: FormProblem | null
  },
): string {
  const { endpoint, delivery } = input
  const base = `/webhooks/${endpoint.id}`
  return layout({
    title: `Delivery ${delivery.id}`,
    web,
    current: '/webhooks',
    body: html`<p class="crumbs"><a href="/webhooks">Webhooks</a> ›
<a href="${base}">${endpoint.url}</a></p>
<h1>Delivery of ${delivery.event_type}</h1>
!${input.notice ? html`<p class="notice" role="status">${input.notice}</p>` : ''}
!${problemSummary(input.problem ?? null)}
!${facts([
      ['Status', html`${delivery.status}`],
      ['Last error', html`${delivery.last_error ?? '—'}`],
      ['Event id', html`<code>${delivery.event_id}</code>`],
      ['Next attempt', when(delivery.next_attempt_at)],
      ['Created', when(delivery.created_at)],
    ])}
!${csrfForm(
      `${base}/deliveries/${delivery.id}/replay`,
      web.csrf,
      html`<button type="submit">Replay this delivery</button>`,
    )}
<h2>Attempts</h2>
!${input.attempts.length ? input.attempts.map(attemptSection) : html`<p class="empty">Not sent yet.</p>`}`,
  })
}

function attemptSection(attempt: Attempt): string {
  const headers = Object.entries(attempt.request.headers)
    .map(([name, value]) => `${name}: ${value}`)
    .join('\n')
  const answer = attempt.response
    ? html`<h4>Response ${attempt.response.status}</h4>!${body(attempt.response.body)}`
    : html`<p>No response.</p>`
  return html`<section aria-labelledby="attempt-${attempt.attempt}">
<h3 id="attempt-${attempt.attempt}">Attempt ${attempt.attempt} (${attempt.trigger})</h3>
!${facts([
    ['At', when(attempt.at)],
    ['Status code', html`${attempt.status_code ?? '—'}`],
    ['Duration', html`${attempt.duration_ms} ms`],
    ['Error', html`${attempt.error ?? '—'}`],
    ['URL', html`<span class="long">${attempt.url}</span>`],
  ])}
<h4>Request</h4>
!${bytes(headers)}
!${body(attempt.request.body)}
!${answer}
</section>`
}

// A body as a person reads it: JSON indented, with the exact bytes one click away (signatures
// are over those); anything else as it came.
function body(text: string): string {
  const formatted = indentedJson(text)
  if (formatted === null) return bytes(text)
  return html`!${bytes(formatted)}
<details><summary>Exact bytes</summary>!${bytes(text)}</details>`
}

function indentedJson(text: string): string | null {
  try {
    const formatted = JSON.stringify(JSON.parse(text), null, 2)
    return formatted === text ? null : formatted
  } catch {
    return null
  }
}

// Bytes as escaped text in a <pre>, cut at SHOWN_BYTES with a note of what was left out.
function bytes(text: string): string {
  const size = Buffer.byteLength(text)
  if (size <= SHOWN_BYTES) return html`<pre class="bytes" tabindex="0">${text}</pre>`
  const shown = Buffer.from(text).subarray(0, SHOWN_BYTES).toString('utf8')
  return html`<pre class="bytes" tabindex="0">${shown}</pre>
<p class="aside">Showing the first ${SHOWN_BYTES} of ${size} bytes.</p>`
}

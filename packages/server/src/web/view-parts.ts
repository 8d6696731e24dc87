import { html } from 'ghtml'
import type { Neighbour } from './neighbour-names.ts'

/** A link to a neighbour by name, or `fallback` when the neighbour is absent or hidden. */
export function linkTo(
  names: ReadonlyMap<string, Neighbour>,
  id: string | null | undefined,
  fallback = '—',
): string {
  const neighbour = id ? names.get(id) : undefined
  return neighbour ? html`<a href="${neighbour.path}">${neighbour.name}</a>` : html`${fallback}`
}

/** A status or role as a small label: `in_progress` reads "in progress". */
export function badge(value: string): string {
  return html`<span class="badge">${value.replaceAll('_', ' ')}</span>`
}

/**
 * A timestamp as a readable UTC date and time to the second in a <time> element: audit entries
 * and deliveries a minute apart must read apart.
 */
export function when(iso: string | null | undefined): string {
  if (!iso) return '—'
  return html`<time datetime="${iso}">${iso.slice(0, 19).replace('T', ' ')} UTC</time>`
}

/**
 * A wide table in a box of its own that scrolls sideways, so the page never does. The box is a
 * labelled region that takes focus, so a keyboard can scroll it too.
 */
export function tableBox(label: string, table: string): string {
  return html`<div class="table-box" role="region" aria-label="${label}" tabindex="0">!${table}</div>`
}

/** A definition list of label → trusted HTML pairs (the record's facts). */
export function facts(rows: [string, string][]): string {
  return html`<dl class="meta">!${rows.map(([label, value]) => html`<dt>${label}</dt><dd>!${value}</dd>`)}</dl>`
}

/** A list of items as trusted HTML, or an "empty" line when there are none. */
export function items(entries: string[], empty: string): string {
  if (entries.length === 0) return html`<p class="empty">${empty}</p>`
  return html`<ul class="items">!${entries.map((entry) => html`<li>!${entry}</li>`)}</ul>`
}

/** A progress bar (0 to 1) with its percentage as text, so it does not rely on colour alone. */
export function progress(value: number | null | undefined): string {
  const percent = Math.round(Math.min(1, Math.max(0, value ?? 0)) * 100)
  return html`<span class="progress" role="img" aria-label="${percent}% done"><span class="w-${Math.round(percent / 5) * 5}"></span></span> ${percent}%`
}

import { html } from 'ghtml'

/** How long a key made on the dashboard may live, in days; '' for no end. */
export const KEY_LIFETIMES: readonly [string, string][] = [
  ['', 'Never, until revoked'],
  ['7', 'In 7 days'],
  ['30', 'In 30 days'],
  ['90', 'In 90 days'],
  ['365', 'In a year'],
]

/**
 * The optional limits of a new key (docs/permissions.md, "Fenced credentials"): the projects it
 * is fenced to (none ticked: not fenced) and when it stops working.
 */
export function keyLimitFields(input: {
  projects: readonly { id: string; name: string }[]
  checked: ReadonlySet<string>
  lifetime: string
}): string {
  const boxes = input.projects.map(
    (project, i) =>
      html`<li><input type="checkbox" id="fence-${String(i)}" name="project_ids"
value="${project.id}"!${input.checked.has(project.id) ? ' checked' : ''}>
<label for="fence-${String(i)}">${project.name}</label></li>`,
  )
  const fence = boxes.length
    ? html`<fieldset><legend>Only these projects (optional)</legend>
<p class="muted">Ticked: the key opens only them and their tasks, canvases, objectives and
comments. None ticked: everything you can open.</p>
<ul class="checks">!${boxes.join('')}</ul></fieldset>`
    : ''
  const options = KEY_LIFETIMES.map(
    ([days, label]) =>
      html`<option value="${days}"!${days === input.lifetime ? ' selected' : ''}>${label}</option>`,
  ).join('')
  return html`!${fence}<label for="key-lifetime">Stops working</label>
<select id="key-lifetime" name="lifetime">!${options}</select>`
}

import { html } from 'ghtml'
import type { PersonRow, TeamRow } from '../graph/people/people.queries.ts'
import { type FormProblem, fieldError, invalidAttributes } from './form-problems.ts'
import { csrfForm } from './layout.view.ts'
import type { WebContext } from './web-context.ts'

/** Which of the Teams page's forms was sent, with what it held. */
export interface TeamForm {
  readonly kind: 'create' | 'rename' | 'add' | 'remove'
  /** The team a rename or an addition was for. */
  readonly teamId?: string
  readonly name?: string
  readonly memberIds?: readonly string[]
}

type Refused = { form: TeamForm; problem: FormProblem } | undefined

const TEAMS = '/teams'

/** Adding a person: a choice of the active people not yet in the team. */
export function addMemberForm(
  web: WebContext,
  team: TeamRow,
  people: readonly PersonRow[],
  refused: Refused,
): string {
  const problem = refused?.form.kind === 'add' ? refused.problem : null
  const id = `${team.id}-add`
  const choices = people.filter(
    (person) => !person.deactivated_at && !team.member_ids.includes(person.id),
  )
  if (choices.length === 0) return ''
  return csrfForm(
    `${TEAMS}/${team.id}/members`,
    web.csrf,
    html`<label for="${id}">Add to ${team.name}</label>
<div class="inline-row"><select id="${id}" name="person_id"!${invalidAttributes(problem, '/person_id', `${id}-error`)}>!${choices.map(
      (person) => html`<option value="${person.id}">${person.name}</option>`,
    )}</select>
<button type="submit" class="secondary">Add<span class="visually-hidden"> to ${team.name}</span></button></div>
!${fieldError(problem, '/person_id', `${id}-error`)}`,
    'class="team-form"',
  )
}

/** Renaming: behind a disclosure, open when a rename came back refused. */
export function renameForm(web: WebContext, team: TeamRow, refused: Refused): string {
  const problem = refused?.form.kind === 'rename' ? refused.problem : null
  const id = `${team.id}-rename`
  const value = problem ? (refused?.form.name ?? team.name) : team.name
  const form = csrfForm(
    `${TEAMS}/${team.id}/name`,
    web.csrf,
    html`<label for="${id}">New name of ${team.name}</label>
<div class="inline-row"><input type="text" id="${id}" name="name" required maxlength="200" value="${value}"!${invalidAttributes(problem, '/name', `${id}-error`)}>
<button type="submit" class="secondary">Save<span class="visually-hidden"> the name of ${team.name}</span></button></div>
!${fieldError(problem, '/name', `${id}-error`)}`,
  )
  return html`<details class="team-form"!${problem ? ' open' : ''}><summary>Rename<span class="visually-hidden"> ${team.name}</span></summary>!${form}</details>`
}

/** A new team: its name and, optionally, its first members. */
export function newTeamForm(
  web: WebContext,
  people: readonly PersonRow[],
  refused: Refused,
): string {
  const problem = refused?.problem ?? null
  const chosen = new Set(refused?.form.memberIds ?? [])
  const boxes = people
    .filter((person) => !person.deactivated_at)
    .map(
      (person) =>
        html`<li><label class="check"><input type="checkbox" name="member_ids" value="${person.id}"!${chosen.has(person.id) ? ' checked' : ''}> ${person.name}</label></li>`,
    )
  return html`!${csrfForm(
    TEAMS,
    web.csrf,
    html`<label for="team-name">Name</label>
<input type="text" id="team-name" name="name" required maxlength="200" autocomplete="off" value="${refused?.form.name ?? ''}"!${invalidAttributes(problem, '/name', 'team-name-error')}>
!${fieldError(problem, '/name', 'team-name-error')}
<fieldset!${invalidAttributes(problem, '/member_ids', 'team-members-error')}><legend>First members (optional)</legend>
<ul class="checks pick-list">!${boxes.join('')}</ul></fieldset>
!${fieldError(problem, '/member_ids', 'team-members-error')}
<button type="submit">Create team</button>`,
    'class="stack"',
  )}`
}

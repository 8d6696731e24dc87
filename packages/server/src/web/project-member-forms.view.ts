import { html } from 'ghtml'
import type { DirectMember } from '../graph/projects/direct-members.queries.ts'
import { type FormProblem, fieldError, invalidAttributes } from './form-problems.ts'
import { csrfForm } from './layout.view.ts'
import type { WebContext } from './web-context.ts'

/** Who may still be added: the people, teams and integrations the viewer sees, not members yet. */
export interface MemberChoices {
  readonly people: readonly { id: string; name: string }[]
  readonly teams: readonly { id: string; name: string }[]
  readonly integrations: readonly { id: string; name: string }[]
}

/** The project as the access form shows it. */
export interface AccessState {
  readonly projectId: string
  readonly visibility: 'workspace' | 'private'
  readonly ownerId: string
  /** The people who may be made its owner, the current one among them when the viewer sees them. */
  readonly owners: readonly { id: string; name: string }[]
}

const MEMBER_PATHS = ['/person_id', '/team_id', '/integration_id', '/member']

function group(label: string, choices: readonly { id: string; name: string }[]): string {
  if (choices.length === 0) return ''
  return html`<optgroup label="${label}">!${choices.map(
    (choice) => html`<option value="${choice.id}">${choice.name}</option>`,
  )}</optgroup>`
}

/** Adding a member: one choice among people, teams and integrations, grouped. */
export function addProjectMemberForm(
  web: WebContext,
  projectId: string,
  choices: MemberChoices,
  problem: FormProblem | null,
): string {
  if (choices.people.length + choices.teams.length + choices.integrations.length === 0)
    return html`<p class="empty">Everyone you could add is a member already.</p>`
  const path = MEMBER_PATHS.find((at) => problem?.fields.has(at)) ?? '/member'
  return csrfForm(
    `/projects/${projectId}/members`,
    web.csrf,
    html`<label for="add-member">Person, team or integration</label>
<div class="inline-row"><select id="add-member" name="member"!${invalidAttributes(problem, path, 'add-member-error')}>
!${group('People', choices.people)}!${group('Teams', choices.teams)}!${group('Integrations', choices.integrations)}</select>
<button type="submit" class="secondary">Add member</button></div>
!${fieldError(problem, path, 'add-member-error')}`,
  )
}

/** Who may open the project: its visibility and its owner. */
export function accessForm(
  web: WebContext,
  state: AccessState,
  problem: FormProblem | null,
): string {
  const radio = (value: 'workspace' | 'private', label: string, hint: string) =>
    html`<li><label class="check"><input type="radio" name="visibility" value="${value}"!${state.visibility === value ? ' checked' : ''}>
<span><strong>${label}</strong><br><span class="hint">${hint}</span></span></label></li>`
  return csrfForm(
    `/projects/${state.projectId}/access`,
    web.csrf,
    html`<fieldset!${invalidAttributes(problem, '/visibility', 'visibility-error')}><legend>Visibility</legend>
<ul class="checks">!${radio('workspace', 'Workspace', 'Every member of the workspace opens it; guests only if they belong to it.')}
!${radio('private', 'Private', 'Only its members open it: people, teams and integrations added here.')}</ul></fieldset>
!${fieldError(problem, '/visibility', 'visibility-error')}
<label for="owner">Owner</label>
<select id="owner" name="owner_id"!${invalidAttributes(problem, '/owner_id', 'owner-error')}>!${state.owners.map(
      (person) =>
        html`<option value="${person.id}"!${person.id === state.ownerId ? ' selected' : ''}>${person.name}</option>`,
    )}</select>
!${fieldError(problem, '/owner_id', 'owner-error')}
<button type="submit">Save</button>`,
    'class="stack"',
  )
}

/** A direct member as the list shows it: a link to its page when it has one. */
export function memberName(workspaceId: string, member: DirectMember): string {
  return member.type === 'integration'
    ? html`${member.name}`
    : html`<a href="/${workspaceId}/${member.type}/${member.id}">${member.name}</a>`
}

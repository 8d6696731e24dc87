import { html } from 'ghtml'
import type { PersonRow, TeamRow } from '../graph/people/people.queries.ts'
import type { FormProblem } from './form-problems.ts'
import { layout } from './layout.view.ts'
import { pagePath } from './neighbour-names.ts'
import { addMemberForm, newTeamForm, renameForm, type TeamForm } from './team-forms.view.ts'
import { badge, items } from './view-parts.ts'
import type { WebContext } from './web-context.ts'

/** Where the workspace's teams are listed, and changed by its owners and admins. */
export const TEAMS_PATH = '/teams'

/** What the Teams page shows: the teams the viewer sees, and the people to name. */
export interface TeamsPageInput {
  readonly teams: readonly TeamRow[]
  /** Everyone the viewer sees, the deactivated too (team members stay members). */
  readonly people: readonly PersonRow[]
  /** Whether the viewer changes teams: the write forms are shown only then. */
  readonly steward: boolean
  readonly notice: string | null
  /** A refused form, shown again where it was, with why. */
  readonly refused?: { form: TeamForm; problem: FormProblem }
}

function memberItem(
  web: WebContext,
  team: TeamRow,
  person: PersonRow | undefined,
  id: string,
  steward: boolean,
): string {
  if (!person) return ''
  const name = html`<a href="${pagePath(web.session.workspaceId, id)}">${person.name}</a>!${person.deactivated_at ? html` !${badge('deactivated')}` : ''}`
  if (!steward) return name
  return html`!${name}<a class="button small danger-outline push" href="${TEAMS_PATH}/${team.id}/members/${id}/remove">Remove<span class="visually-hidden"> ${person.name} from ${team.name}</span></a>`
}

function teamSection(web: WebContext, input: TeamsPageInput, team: TeamRow): string {
  const people = new Map(input.people.map((person) => [person.id, person]))
  // By name, as the directory lists people; the ids come in id order.
  const members = team.member_ids
    .filter((id) => people.has(id))
    .sort((a, b) => (people.get(a)?.name ?? '').localeCompare(people.get(b)?.name ?? ''))
  const refused = input.refused?.form.teamId === team.id ? input.refused : undefined
  const forms = input.steward
    ? html`<div class="team-forms">!${addMemberForm(web, team, input.people, refused)}
!${renameForm(web, team, refused)}</div>`
    : ''
  return html`<section class="team" id="${team.id}" aria-labelledby="${team.id}-name">
<h2 id="${team.id}-name"><a href="${pagePath(web.session.workspaceId, team.id)}">${team.name}</a>
<span class="badge">${members.length === 1 ? '1 member' : `${members.length} members`}</span></h2>
!${items(
    members.map((id) => memberItem(web, team, people.get(id), id, input.steward)),
    'No member yet.',
  )}
!${forms}</section>`
}

// Why a form was refused, at the top of the page, with a link to the form, which may be far down.
function refusedSummary(refused: TeamsPageInput['refused']): string {
  if (!refused) return ''
  const anchor = refused.form.kind === 'create' ? 'new-team' : (refused.form.teamId ?? '')
  return html`<p class="error" role="alert">${refused.problem.detail} <a href="#${anchor}">Go to the form</a></p>`
}

/** The Teams page: every team the viewer sees with its members; the forms for owners and admins. */
export function teamsPage(web: WebContext, input: TeamsPageInput): string {
  const lede = input.steward
    ? html`Teams and their members. A team added to a project opens it to every member of the
team, from the next request on. <a href="#new-team">Create a team</a>.`
    : web.caller.principal.isMember
      ? html`Teams and their members. The workspace's owners and admins change them.`
      : html`The teams you belong to. The workspace's owners and admins change them.`
  const creating = input.refused?.form.kind === 'create' ? input.refused : undefined
  return layout({
    title: 'Teams',
    web,
    current: TEAMS_PATH,
    body: html`<h1>Teams</h1>
<p class="lede">!${lede}</p>
!${input.notice ? html`<p class="notice" role="status">${input.notice}</p>` : ''}
!${refusedSummary(input.refused)}
!${input.teams.length ? input.teams.map((team) => teamSection(web, input, team)).join('') : html`<p class="empty">No team you can see.</p>`}
!${input.steward ? html`<h2 id="new-team">Create a team</h2>!${newTeamForm(web, input.people, creating)}` : ''}`,
  })
}

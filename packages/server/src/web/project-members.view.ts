import { html } from 'ghtml'
import type { DirectMember } from '../graph/projects/direct-members.queries.ts'
import type { FormProblem } from './form-problems.ts'
import { problemSummary, problemSummaryOnce } from './form-problems.ts'
import { layout } from './layout.view.ts'
import {
  type AccessState,
  accessForm,
  addProjectMemberForm,
  type MemberChoices,
  memberName,
} from './project-member-forms.view.ts'
import { badge, facts, items } from './view-parts.ts'
import type { WebContext } from './web-context.ts'

/** Which form of the members page was refused, and why. */
export interface MembersRefusal {
  readonly form: 'add' | 'access' | 'remove'
  readonly problem: FormProblem
}

/** What the members page shows. */
export interface MembersPageInput {
  readonly project: { id: string; name: string; visibility: 'workspace' | 'private' }
  /** The owner, or null when the viewer may not see them. */
  readonly owner: { id: string; name: string } | null
  readonly members: readonly DirectMember[]
  /** The forms, for those who decide who may open the project; null for everyone else. */
  readonly steward: { choices: MemberChoices; access: AccessState } | null
  readonly notice: string | null
  readonly refused?: MembersRefusal
}

/** The members page of a project: `/projects/{id}/members`. */
export function membersPath(projectId: string): string {
  return `/projects/${projectId}/members`
}

const VISIBILITY = {
  workspace: 'Every member of the workspace opens it; guests only if they belong to it.',
  private: 'Only its members open it.',
} as const

function memberItem(web: WebContext, input: MembersPageInput, member: DirectMember): string {
  const name = html`!${memberName(web.session.workspaceId, member)} !${badge(member.type)}`
  if (!input.steward) return name
  return html`!${name}<a class="button small danger-outline push" href="${membersPath(input.project.id)}/${member.id}/remove">Remove<span class="visually-hidden"> ${member.name}</span></a>`
}

/**
 * A project's direct members (people, teams, integrations) and, for its owner and the
 * workspace's owners and admins, the forms that decide who may open it.
 */
export function projectMembersPage(web: WebContext, input: MembersPageInput): string {
  const { project, refused } = input
  const ws = web.session.workspaceId
  const problem = (form: MembersRefusal['form']) =>
    refused?.form === form ? refused.problem : null
  const steward = input.steward
    ? html`<h2 id="add">Add a member</h2>
!${problemSummaryOnce(problem('add'))}
!${addProjectMemberForm(web, project.id, input.steward.choices, problem('add'))}
<h2 id="access">Who may open it</h2>
!${problemSummaryOnce(problem('access'))}
!${accessForm(web, input.steward.access, problem('access'))}`
    : html`<p>Only the project's owner and the workspace's owners and admins change who may open it.</p>`
  return layout({
    title: `Members of ${project.name}`,
    web,
    body: html`<p class="crumbs"><a href="/${ws}/project/${project.id}">${project.name}</a> › Members</p>
<h1>Members of ${project.name}</h1>
!${input.notice ? html`<p class="notice" role="status">${input.notice}</p>` : ''}
!${facts([
      ['Visibility', html`!${badge(project.visibility)} ${VISIBILITY[project.visibility]}`],
      [
        'Owner',
        input.owner ? html`<a href="/${ws}/person/${input.owner.id}">${input.owner.name}</a>` : '—',
      ],
    ])}
<h2>Direct members</h2>
<p class="lede">The people in a member team open the project too: see the team's page.</p>
!${problemSummary(problem('remove'))}
!${items(
      input.members.map((member) => memberItem(web, input, member)),
      'No direct member you can see.',
    )}
!${steward}`,
  })
}

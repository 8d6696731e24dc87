import { html } from 'ghtml'
import type { AnyRecord } from '../graph/resources/load-record.ts'
import { layout } from './layout.view.ts'
import { pagePath } from './neighbour-names.ts'
import { type NewProjectForm, newProjectForm } from './new-project.view.ts'
import { badge, items } from './view-parts.ts'
import type { WebContext } from './web-context.ts'

/** The signed-in home: the workspace at a glance and the projects the person may open. */
export function homePage(
  web: WebContext,
  input: {
    workspaceName: string
    memberCount: number
    projects: AnyRecord[]
    /** The new-project form, for those who may make a project; null for everyone else. */
    newProject?: { formKey: string; refused: NewProjectForm | null } | null
  },
): string {
  const ws = web.session.workspaceId
  const projects = input.projects.map((project) =>
    project.type === 'project'
      ? html`<a href="${pagePath(ws, project.id)}">${project.name}</a> !${badge(project.status)}<span class="aside">updated ${project.updated_at.slice(0, 10)}</span>`
      : '',
  )
  return layout({
    title: 'Home',
    web,
    current: '/',
    body: html`<h1>${input.workspaceName}</h1>
<p class="lede">Signed in as ${web.session.personName} (${web.session.role}). ${input.memberCount} people in the workspace.</p>
<h2>Projects</h2>
!${items(projects, 'No project is open to you yet.')}
!${input.newProject ? html`<h2 id="new-project">New project</h2>!${newProjectForm(web, input.newProject.formKey, input.newProject.refused)}` : ''}
<h2>You</h2>
<p><a href="${pagePath(ws, web.session.personId)}">Your page</a>: your tasks and teams.</p>`,
  })
}

import { html } from 'ghtml'
import {
  type FormProblem,
  fieldError,
  invalidAttributes,
  problemSummaryOnce,
} from './form-problems.ts'
import { csrfForm } from './layout.view.ts'
import type { WebContext } from './web-context.ts'

/** The new-project form as submitted, to show again with what was wrong. */
export interface NewProjectForm {
  readonly name: string
  readonly description: string
  readonly visibility: string
  readonly problem: FormProblem
}

/** The home page's form that makes a project, owned by its maker, who belongs to it. */
export function newProjectForm(
  web: WebContext,
  formKey: string,
  refused: NewProjectForm | null,
): string {
  const problem = refused?.problem ?? null
  const chosen = refused?.visibility === 'private' ? 'private' : 'workspace'
  const radio = (value: string, label: string, hint: string) =>
    html`<li><label class="check"><input type="radio" name="visibility" value="${value}"!${chosen === value ? ' checked' : ''}>
<span><strong>${label}</strong><br><span class="hint">${hint}</span></span></label></li>`
  return html`!${problemSummaryOnce(problem)}!${csrfForm(
    '/projects',
    web.csrf,
    html`<input type="hidden" name="form_key" value="${formKey}">
<label for="project-name">Name</label>
<input type="text" id="project-name" name="name" required maxlength="200" autocomplete="off" value="${refused?.name ?? ''}"!${invalidAttributes(problem, '/name', 'project-name-error')}>
!${fieldError(problem, '/name', 'project-name-error')}
<label for="project-description">Description (optional)</label>
<textarea id="project-description" name="description" rows="3" maxlength="10000"!${invalidAttributes(problem, '/description', 'project-description-error')}>${refused?.description ?? ''}</textarea>
!${fieldError(problem, '/description', 'project-description-error')}
<fieldset!${invalidAttributes(problem, '/visibility', 'project-visibility-error')}><legend>Visibility</legend>
<ul class="checks">!${radio('workspace', 'Workspace', 'Every member of the workspace opens it.')}
!${radio('private', 'Private', 'Only you, until you add members.')}</ul></fieldset>
!${fieldError(problem, '/visibility', 'project-visibility-error')}
<button type="submit">Create project</button>`,
    'class="stack"',
  )}`
}

import { html } from 'ghtml'
import { SCOPE_ALIASES, SCOPES, type Scope } from '../../catalogue/scopes.ts'
import { layout } from '../../web/layout.view.ts'

/** What the consent page shows and where its forms post. */
export interface ConsentInput {
  readonly action: string
  readonly switchAction: string
  readonly csrf: string
  readonly clientName: string
  readonly personName: string
  readonly email: string
  readonly workspaceName: string
  readonly scopes: readonly string[]
  /** The projects to pick from (docs/oauth.md, "Picking projects"); absent: no choice. */
  readonly projects?: readonly { id: string; name: string; checked: boolean }[]
  readonly error?: string
}

/** What a requested scope name means, in the words of the scope catalogue. */
function describeScope(name: string): string {
  if (Object.hasOwn(SCOPES, name)) return SCOPES[name as Scope]
  const canonical = SCOPE_ALIASES[name] ?? []
  return canonical.map((scope) => SCOPES[scope]).join('; ')
}

/** The consent page: who asks, for what, in which workspace, as whom; allow or deny. */
export function consentPage(input: ConsentInput): string {
  const scopes = input.scopes.map(
    (scope) => html`<li><code>${scope}</code>: ${describeScope(scope)}</li>`,
  )
  return layout({
    title: 'Authorize access',
    web: null,
    body: html`<div class="sign-in">
<h1>Authorize access</h1>
<p><strong>${input.clientName}</strong> asks to act as <strong>${input.personName}</strong>
(${input.email}) in the workspace <strong>${input.workspaceName}</strong>. It will see only what
you can see, and may:</p>
<ul class="scopes">!${scopes.join('')}</ul>
<p>You can revoke this access at any time on the dashboard, under
<a href="/settings/apps">OAuth apps</a>.</p>
!${input.error ? html`<p class="error" role="alert">${input.error}</p>` : ''}
<form class="stack" method="post" action="${input.action}">
<input type="hidden" name="csrf" value="${input.csrf}">
!${input.projects ? projectChoice(input.projects) : ''}
<div class="buttons">
<button type="submit" name="decision" value="approve">Allow</button>
<button type="submit" class="button secondary" name="decision" value="deny">Deny</button>
</div>
</form>
<form class="switch" method="post" action="${input.switchAction}">
<input type="hidden" name="csrf" value="${input.csrf}">
<button type="submit" class="link">Sign in as someone else</button>
</form>
</div>`,
  })
}

// The projects the app may open: only those ticked, and what belongs to them.
function projectChoice(projects: NonNullable<ConsentInput['projects']>): string {
  if (projects.length === 0)
    return html`<p class="error">The app asks to be limited to projects you pick, and you can open none.</p>`
  const boxes = projects.map(
    (project, index) =>
      html`<li><input type="checkbox" name="project_ids" id="project-${String(index)}"
value="${project.id}"!${project.checked ? ' checked' : ''}>
<label for="project-${String(index)}">${project.name}</label></li>`,
  )
  return html`<fieldset><legend>Only these projects</legend>
<p>The app will open only the projects you tick, and their tasks, canvases, objectives and
comments.</p>
<ul class="checks">!${boxes.join('')}</ul>
</fieldset>`
}

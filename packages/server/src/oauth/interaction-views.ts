import { SCOPE_ALIASES, SCOPES, type Scope } from '../access/scopes.ts'

// Every page is static HTML: no script, no external resource, nothing that can be framed.
/** Headers of every sign-in, consent and error page. */
export const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'content-security-policy':
    "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'",
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
} as const

/** Escapes text for HTML element content and quoted attribute values. */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`)
}

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem;color:#1a1a1a}
label{display:block;margin-top:1rem;font-weight:600}input[type=email],input[type=password]{width:100%;padding:.5rem;font:inherit;box-sizing:border-box}
button{margin-top:1.25rem;margin-right:.5rem;padding:.5rem 1rem;font:inherit}.error{color:#a40000}
ul{padding-left:1.25rem}code{font-size:.9em}`

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Workgraph</title><style>${STYLE}</style></head>
<body><main>
<h1>${escapeHtml(title)}</h1>
${body}
</main></body>
</html>
`
}

function errorLine(message: string | undefined): string {
  return message ? `<p class="error" role="alert">${escapeHtml(message)}</p>` : ''
}

/** The sign-in form of one interaction. */
export function renderSignIn(input: {
  action: string
  csrf: string
  clientName: string
  email?: string
  error?: string
}): string {
  return page(
    'Sign in',
    `<p><strong>${escapeHtml(input.clientName)}</strong> wants to use Workgraph on your behalf. Sign in to continue.</p>
${errorLine(input.error)}
<form method="post" action="${escapeHtml(input.action)}">
<input type="hidden" name="csrf" value="${escapeHtml(input.csrf)}">
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" required value="${escapeHtml(input.email ?? '')}">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Sign in</button>
</form>`,
  )
}

/** The choice between workspaces when one email and password sign in to several. */
export function renderWorkspaceChoice(input: {
  action: string
  csrf: string
  options: { value: string; workspaceName: string; role: string }[]
}): string {
  const options = input.options
    .map(
      (option, index) =>
        `<p><input type="radio" name="choice" id="choice-${index}" value="${escapeHtml(option.value)}"${index === 0 ? ' checked' : ''}>
<label for="choice-${index}" style="display:inline;font-weight:400">${escapeHtml(option.workspaceName)} (${escapeHtml(option.role)})</label></p>`,
    )
    .join('\n')
  return page(
    'Choose a workspace',
    `<p>You belong to several workspaces. The app will act in the one you choose.</p>
<form method="post" action="${escapeHtml(input.action)}">
<input type="hidden" name="csrf" value="${escapeHtml(input.csrf)}">
<fieldset><legend>Workspace</legend>
${options}
</fieldset>
<button type="submit">Continue</button>
</form>`,
  )
}

/** What a requested scope name means, in the words of the scope catalogue. */
function describeScope(name: string): string {
  if (Object.hasOwn(SCOPES, name)) return SCOPES[name as Scope]
  const canonical = SCOPE_ALIASES[name] ?? []
  return canonical.map((scope) => SCOPES[scope]).join('; ')
}

/** The consent page: who asks, for what, in which workspace, as whom. */
export function renderConsent(input: {
  action: string
  csrf: string
  clientName: string
  personName: string
  email: string
  workspaceName: string
  scopes: string[]
  switchAction: string
  /** The projects to pick from (docs/oauth.md, "Picking projects"); absent: no choice. */
  projects?: { id: string; name: string; checked: boolean }[]
  error?: string
}): string {
  const items = input.scopes
    .map(
      (scope) => `<li><code>${escapeHtml(scope)}</code>: ${escapeHtml(describeScope(scope))}</li>`,
    )
    .join('\n')
  return page(
    'Authorize access',
    `<p><strong>${escapeHtml(input.clientName)}</strong> asks to act as <strong>${escapeHtml(input.personName)}</strong> (${escapeHtml(input.email)}) in the workspace <strong>${escapeHtml(input.workspaceName)}</strong>. It will see only what you can see, and may:</p>
<ul>
${items}
</ul>
<p>You can revoke this access at any time.</p>
${errorLine(input.error)}
<form method="post" action="${escapeHtml(input.action)}">
<input type="hidden" name="csrf" value="${escapeHtml(input.csrf)}">
${input.projects ? projectChoice(input.projects) : ''}
<button type="submit" name="decision" value="approve">Allow</button>
<button type="submit" name="decision" value="deny">Deny</button>
</form>
<form method="post" action="${escapeHtml(input.switchAction)}">
<input type="hidden" name="csrf" value="${escapeHtml(input.csrf)}">
<button type="submit">Sign in as someone else</button>
</form>`,
  )
}

// The projects the app may open: only those ticked, and what belongs to them.
function projectChoice(projects: { id: string; name: string; checked: boolean }[]): string {
  if (projects.length === 0)
    return '<p class="error">The app asks to be limited to projects you pick, and you can open none.</p>'
  const boxes = projects
    .map(
      (project, index) =>
        `<p><input type="checkbox" name="project_ids" id="project-${index}" value="${escapeHtml(project.id)}"${project.checked ? ' checked' : ''}>
<label for="project-${index}" style="display:inline;font-weight:400">${escapeHtml(project.name)}</label></p>`,
    )
    .join('\n')
  return `<fieldset><legend>Only these projects</legend>
<p>The app will open only the projects you tick, and their tasks, canvases, objectives and comments.</p>
${boxes}
</fieldset>`
}

/** The page shown instead of a redirect when the request cannot be trusted with one. */
export function renderErrorPage(error: string, description?: string): string {
  return page(
    'Something went wrong',
    `<p>The app's request could not be completed, and you were not sent back to it.</p>
<p><code>${escapeHtml(error)}</code>${description ? `: ${escapeHtml(description)}` : ''}</p>`,
  )
}

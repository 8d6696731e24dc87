import { html } from 'ghtml'
import { PASSWORD_LENGTH } from '../setup/owner-input.ts'
import { secretBox } from './credential-parts.ts'
import { type FormProblem, fieldError, invalidAttributes, problemSummary } from './form-problems.ts'
import { layout } from './layout.view.ts'
import type { WebContext } from './web-context.ts'

/** Where the first-run page lives. */
export const SETUP_PATH = '/setup'

/** What the first-run form was given, to show it again with what was wrong (never a password). */
export interface SetupValues {
  readonly workspace_name?: string
  readonly name?: string
  readonly email?: string
}

// One labelled field of the form, with its error beside it.
function field(
  input: { id: string; label: string; type: string; autocomplete: string; value?: string },
  problem: FormProblem | null,
  extra = '',
): string {
  const path = `/${input.id}`
  const errorId = `${input.id}-error`
  return html`<label for="${input.id}">${input.label}</label>
<input id="${input.id}" name="${input.id}" type="${input.type}" autocomplete="${input.autocomplete}" required!${extra}
!${input.value === undefined ? '' : html` value="${input.value}"`}!${invalidAttributes(problem, path, errorId)}>
!${fieldError(problem, path, errorId)}`
}

/**
 * The first-run form of a server with no workspace: the workspace's name, and its owner's name,
 * email and password. It carries the setup link's token, which its POST needs again.
 */
export function setupPage(input: {
  csrf: string
  token: string
  values: SetupValues
  problem: FormProblem | null
}): string {
  const { values, problem } = input
  return layout({
    title: 'Start your workspace',
    web: null,
    body: html`<div class="sign-in">
<h1>Start your workspace</h1>
<p class="lede">This server has no workspace yet. Name yours and make yourself its owner; you
can invite the others once you are in.</p>
!${problemSummary(problem)}
<form class="stack" method="post" action="${SETUP_PATH}">
<input type="hidden" name="csrf" value="${input.csrf}">
<input type="hidden" name="token" value="${input.token}">
!${field(
      {
        id: 'workspace_name',
        label: 'Workspace name',
        type: 'text',
        autocomplete: 'organization',
        value: values.workspace_name ?? '',
      },
      problem,
      ' maxlength="200"',
    )}
!${field({ id: 'name', label: 'Your name', type: 'text', autocomplete: 'name', value: values.name ?? '' }, problem, ' maxlength="200"')}
!${field({ id: 'email', label: 'Email', type: 'email', autocomplete: 'email', value: values.email ?? '' }, problem, ' maxlength="320"')}
!${field({ id: 'password', label: `Password (${PASSWORD_LENGTH.min} characters or more)`, type: 'password', autocomplete: 'new-password' }, problem, ` minlength="${PASSWORD_LENGTH.min}" maxlength="${PASSWORD_LENGTH.max}"`)}
<button type="submit">Create workspace</button>
</form>
</div>`,
  })
}

/**
 * The page after the first-run form: the owner is signed in, and their first API key is shown
 * this once, with a request to try it.
 */
export function setupDonePage(
  web: WebContext,
  input: { apiKey: string; publicUrl: string },
): string {
  const curl = `curl -s -H "Authorization: Bearer ${input.apiKey}" ${input.publicUrl}/v1/workspace`
  return layout({
    title: 'Your workspace is ready',
    web,
    body: html`<h1>Your workspace is ready</h1>
<p class="lede">“${web.session.workspaceName}” is made, with you as its owner, and you are
signed in.</p>
<h2>Your first API key</h2>
<p>It acts as you, with every scope an owner holds, from scripts and tools.</p>
!${secretBox(input.apiKey)}
<p>Try it:</p>
<p><code class="long">${curl}</code></p>
<p><a class="button" href="/">Open the dashboard</a>
<a class="button secondary" href="/settings/api-keys">Manage API keys</a></p>`,
  })
}

/** The first-run form sent again by the person it signed in (a reload): what it did stays done. */
export function alreadySetUpPage(web: WebContext): string {
  return layout({
    title: 'Already set up',
    web,
    body: html`<h1>Already set up</h1>
<p class="error">This form was already submitted: the workspace exists, and its first API key
was shown then and is never shown again. If it was not copied, revoke it on the API keys page
and make another.</p>
<p><a href="/">Open the dashboard</a> · <a href="/settings/api-keys">API keys</a></p>`,
  })
}

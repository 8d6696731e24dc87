import { html } from 'ghtml'
import type { Role } from '../access/principal.ts'
import type { InvitationRow } from '../graph/people/invitations.queries.ts'
import type { PersonRow } from '../graph/people/people.queries.ts'
import { listTable, revokeLink } from './credential-parts.ts'
import { csrfForm, layout } from './layout.view.ts'
import { badge, when } from './view-parts.ts'
import type { WebContext } from './web-context.ts'

/** Where owners and admins manage the workspace's people. */
export const PEOPLE_PATH = '/people'

/** The invite form as submitted, to show again with what was wrong. */
export interface InviteFormState {
  readonly email?: string
  readonly name?: string
  readonly role?: string
  readonly error?: string
}

/** The domain form as shown: the provider's name, the domain set, and what was wrong. */
export interface SsoDomainState {
  /** The identity provider's name (SSO_NAME). */
  readonly name: string
  readonly domain: string | null
  /** The value submitted, shown again beside its error. */
  readonly value?: string
  readonly error?: string
}

/** Where an owner sets the email domain that joins through the identity provider. */
export const SSO_DOMAIN_PATH = `${PEOPLE_PATH}/sso-domain`

/** What the page shows: everyone (the deactivated too), the pending invitations, the form. */
export interface PeoplePageInput {
  readonly people: readonly PersonRow[]
  readonly invitations: readonly InvitationRow[]
  /** Names of the people who sent invitations. */
  readonly names: ReadonlyMap<string, string>
  readonly formKey: string
  readonly notice: string | null
  readonly form?: InviteFormState
  /** The joining section, with an identity provider only. */
  readonly sso?: SsoDomainState
}

const ADMINISTERING: readonly Role[] = ['owner', 'admin']

// The roles `viewer` may give `person`: an owner any; an admin neither owner nor admin, and
// nothing to an owner or admin (the API's rule, people-admin.commands.ts).
function rolesFor(viewer: Role, person: PersonRow): Role[] | null {
  if (viewer === 'owner') return ['owner', 'admin', 'member', 'guest']
  if (ADMINISTERING.includes(person.role)) return null
  return ['member', 'guest']
}

function roleForm(web: WebContext, person: PersonRow): string {
  const roles = rolesFor(web.session.role, person)
  if (!roles || person.deactivated_at) return badge(person.role)
  const id = `role-${person.id}`
  return csrfForm(
    `${PEOPLE_PATH}/${person.id}/role`,
    web.csrf,
    html`<label class="visually-hidden" for="${id}">Role of ${person.name}</label>
<select id="${id}" name="role">!${roles.map(
      (role) =>
        html`<option value="${role}"!${role === person.role ? ' selected' : ''}>${role}</option>`,
    )}</select>
<button type="submit" class="small secondary">Change<span class="visually-hidden"> the role of ${person.name}</span></button>`,
    'class="inline"',
  )
}

function personActions(web: WebContext, person: PersonRow): string {
  const ownerOnly = ADMINISTERING.includes(person.role) && web.session.role !== 'owner'
  if (person.deactivated_at) {
    if (ownerOnly) return ''
    return csrfForm(
      `${PEOPLE_PATH}/${person.id}/reactivate`,
      web.csrf,
      html`<button type="submit" class="small secondary">Reactivate<span class="visually-hidden"> ${person.name}</span></button>`,
      'class="inline"',
    )
  }
  if (person.role === 'owner' && web.session.role !== 'owner') return ''
  return html`<a class="button small danger-outline" href="${PEOPLE_PATH}/${person.id}/deactivate">Deactivate<span class="visually-hidden"> ${person.name}</span></a>`
}

function personRow(web: WebContext, person: PersonRow): string {
  const path = `/${person.workspace_id}/person/${person.id}`
  return html`<tr><td><a href="${path}">${person.name}</a></td><td>${person.email}</td>
<td>!${roleForm(web, person)}</td>
<td>!${person.deactivated_at ? html`!${badge('deactivated')} !${when(person.deactivated_at.toISOString())}` : badge('active')}</td>
<td>!${personActions(web, person)}</td></tr>`
}

function invitationRow(input: PeoplePageInput, invitation: InvitationRow): string {
  return html`<tr><td>${invitation.email}</td><td>${badge(invitation.role)}</td>
<td>${input.names.get(invitation.invited_by) ?? '—'}</td><td>!${when(invitation.expires_at.toISOString())}</td>
<td>!${revokeLink(`${PEOPLE_PATH}/invitations/${invitation.id}/revoke`, `the invitation of ${invitation.email}`)}</td></tr>`
}

function inviteForm(web: WebContext, input: PeoplePageInput): string {
  const { form = {} } = input
  const roles: Role[] =
    web.session.role === 'owner' ? ['member', 'guest', 'admin'] : ['member', 'guest']
  const chosen = form.role ?? 'member'
  return csrfForm(
    `${PEOPLE_PATH}/invitations`,
    web.csrf,
    html`<input type="hidden" name="form_key" value="${input.formKey}">
!${form.error ? html`<p class="error" role="alert">${form.error}</p>` : ''}
<label for="invite-email">Email</label>
<input type="email" id="invite-email" name="email" required maxlength="320" autocomplete="off" value="${form.email ?? ''}">
<label for="invite-name">Name (optional: the join page offers it)</label>
<input type="text" id="invite-name" name="name" maxlength="200" autocomplete="off" value="${form.name ?? ''}">
<label for="invite-role">Role</label>
<select id="invite-role" name="role">!${roles.map(
      (role) =>
        html`<option value="${role}"!${role === chosen ? ' selected' : ''}>${role}</option>`,
    )}</select>
<button type="submit">Invite</button>`,
    'class="stack"',
  )
}

// Who joins through the identity provider: the invited, and an owner's domain; admins read it.
function ssoSection(web: WebContext, sso: SsoDomainState): string {
  const now = sso.domain
    ? html`Now anyone whose address at ${sso.name} ends in <strong>@${sso.domain}</strong> joins as a member at their first sign-in.`
    : html`No domain is set: only the people invited join.`
  const intro = html`<h2>Joining with ${sso.name}</h2>
<p>People may sign in with ${sso.name}. An address it has verified joins this workspace when it
was invited, with the invitation's role, or when it is of the domain set here, as a member.
!${now}</p>`
  if (web.session.role !== 'owner')
    return html`!${intro}<p class="muted">Only an owner sets the domain.</p>`
  const id = 'sso-domain'
  const invalid = sso.error ? html` aria-invalid="true" aria-describedby="${id}-error"` : ''
  return html`!${intro}
!${csrfForm(
    SSO_DOMAIN_PATH,
    web.csrf,
    html`!${sso.error ? html`<p class="error" id="${id}-error" role="alert">${sso.error}</p>` : ''}
<label for="${id}">Email domain that joins as members (empty: none)</label>
<input type="text" id="${id}" name="domain" maxlength="253" autocomplete="off" placeholder="example.com" value="${sso.value ?? sso.domain ?? ''}"!${invalid}>
<button type="submit">Save domain</button>`,
    'class="stack"',
  )}`
}

/** The People page: who is in the workspace, who is invited, and the invite form. */
export function peoplePage(web: WebContext, input: PeoplePageInput): string {
  const people = listTable(
    'People',
    ['Name', 'Email', 'Role', 'Status', 'Actions'],
    input.people.map((person) => personRow(web, person)),
  )
  const invitations = input.invitations.length
    ? listTable(
        'Pending invitations',
        ['Email', 'Role', 'Invited by', 'Expires', 'Actions'],
        input.invitations.map((invitation) => invitationRow(input, invitation)),
      )
    : html`<p class="empty">No invitation is pending.</p>`
  return layout({
    title: 'People',
    web,
    current: PEOPLE_PATH,
    body: html`<h1>People</h1>
<p class="lede">Everyone in the workspace and their role. Deactivating someone signs them out
and ends their keys, app authorizations and webhooks at once; what they wrote stays.</p>
!${input.notice ? html`<p class="notice" role="status">${input.notice}</p>` : ''}
!${people}
<h2>Pending invitations</h2>
!${invitations}
<h2>Invite someone</h2>
<p>The invitation's link works once, for 7 days.</p>
!${inviteForm(web, input)}
!${input.sso ? ssoSection(web, input.sso) : ''}`,
  })
}

/** The page after an invitation is made: its link, this once, and whether it was emailed. */
export function invitedPage(
  web: WebContext,
  input: { email: string | null; url: string | null; mailed: string | null },
): string {
  const mailed =
    input.mailed === 'sent'
      ? html`<p>It was emailed to ${input.email ?? ''}.</p>`
      : input.mailed === 'failed'
        ? html`<p class="error">The email could not be sent: pass the link on yourself.</p>`
        : html`<p>No email server is set up: pass the link on yourself.</p>`
  const link = input.url
    ? html`<div class="secret"><p><strong>Copy this link now: it is shown only once.</strong>
Only a hash of it is stored, so it cannot be shown again.</p>
<p><code id="secret" class="secret-value">${input.url}</code>
<button type="button" data-copy="secret" hidden>Copy</button></p></div>
!${mailed}`
    : html`<p class="error">This form was already submitted: the link was shown then, and is
never shown again. If it was not kept, revoke the invitation and invite again.</p>`
  return layout({
    title: 'Invitation created',
    web,
    current: PEOPLE_PATH,
    body: html`<h1>Invitation created</h1>
!${input.email ? html`<p>Whoever opens this link joins as ${input.email}.</p>` : ''}
!${link}
<p><a href="${PEOPLE_PATH}">Done</a></p>`,
  })
}

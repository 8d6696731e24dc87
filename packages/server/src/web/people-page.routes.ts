import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { canAdminister } from '../access/administration.ts'
import type { Role } from '../access/principal.ts'
import { ProblemError } from '../api/problem-catalogue.ts'
import type { AppDeps } from '../app-deps.ts'
import type { Db } from '../db/database.ts'
import { emailInvitation } from '../graph/people/invitation-email.ts'
import {
  createInvitation,
  joinPath,
  revokeInvitation,
} from '../graph/people/invitations.commands.ts'
import { listPendingInvitations, pendingInvitation } from '../graph/people/invitations.queries.ts'
import { CreateInvitationBody } from '../graph/people/invitations.schemas.ts'
import { listPeople } from '../graph/people/people.queries.ts'
import {
  changeRole,
  deactivatePerson,
  reactivatePerson,
} from '../graph/people/people-admin.commands.ts'
import { requireAdministrator, targetPerson } from '../graph/people/people-admin.rules.ts'
import { setSsoEmailDomain } from '../sso/sso-domain.commands.ts'
import type { WriteContext } from '../writes/write-context.ts'
import { confirmPage } from './credential-pages.view.ts'
import { forbiddenPage } from './forbidden.view.ts'
import { checkedInput, formProblem } from './form-problems.ts'
import { forbiddenFormPage, notFoundPage } from './message.view.ts'
import { sendPage } from './page-headers.ts'
import {
  type InviteFormState,
  invitedPage,
  PEOPLE_PATH,
  peoplePage,
  SSO_DOMAIN_PATH,
  type SsoDomainState,
} from './people-page.view.ts'
import { sendProblemPage } from './problem-page.ts'
import { seeOther } from './see-other.ts'
import { SIGNED_IN_PAGE, type WebContext } from './web-context.ts'
import { formOf, isOwnForm, newFormKey, webIssue, webWrite } from './web-write.ts'

const LIST_LIMIT = 500
const FOR_ADMINS = 'The People page is for workspace owners and admins.'
const ROLES: readonly string[] = ['owner', 'admin', 'member', 'guest']

// Fixed confirmations chosen by `?done=`: a page never echoes text from its address.
const NOTICES: Record<string, string> = {
  role: 'The role was changed.',
  deactivated: 'The person was deactivated: signed out, with every key and app ended.',
  reactivated: 'The person was reactivated: they can sign in again.',
  revoked: 'The invitation was revoked: its link no longer works.',
  domain: 'The email domain that joins was saved.',
}

const administers = (web: WebContext) => canAdminister(web.caller.principal)

function field(value: unknown): string {
  return typeof value === 'string' ? value.trim() : ''
}

/**
 * The People page (`/people`), for owners and admins like the API's `people:write` writes: the
 * workspace's people with their roles (change, deactivate, reactivate), the pending invitations
 * (revoke) and the invite form, whose link is shown once. Every change runs the API's command
 * through `webWrite`; anyone else gets a 403 page naming who the page is for. With an identity
 * provider, the page also says who joins through it, and an owner sets the email domain there.
 */
export function peoplePageRoutes(deps: AppDeps) {
  return async (app: FastifyInstance) => {
    async function show(
      reply: FastifyReply,
      web: WebContext,
      status: number,
      extra: {
        notice?: string | null
        form?: InviteFormState
        sso?: Pick<SsoDomainState, 'value' | 'error'>
      } = {},
    ) {
      const ws = web.session.workspaceId
      const now = deps.clock.now()
      const people = (await listPeople(deps.db, web.caller.visibility, {}, null, LIST_LIMIT)).slice(
        0,
        LIST_LIMIT,
      )
      const invitations = (await listPendingInvitations(deps.db, ws, now, null, LIST_LIMIT)).slice(
        0,
        LIST_LIMIT,
      )
      const names = new Map(people.map((person) => [person.id, person.name]))
      const { sso } = deps.config
      const workspace = sso
        ? await deps.db
            .selectFrom('workspaces')
            .select('sso_email_domain')
            .where('id', '=', ws)
            .executeTakeFirstOrThrow()
        : null
      const page = peoplePage(web, {
        people,
        invitations,
        names,
        formKey: newFormKey(),
        notice: extra.notice ?? null,
        ...(extra.form ? { form: extra.form } : {}),
        ...(sso &&
          workspace && {
            sso: { name: sso.name, domain: workspace.sso_email_domain, ...extra.sso },
          }),
      })
      return sendPage(reply, status, page)
    }

    // The checks every POST makes first: the form is ours, and the session administers.
    function refused(request: FastifyRequest, reply: FastifyReply): boolean {
      const web = request.web as WebContext
      if (!isOwnForm(request, deps.config.publicUrl)) {
        sendPage(reply, 403, forbiddenFormPage(web))
        return true
      }
      if (!administers(web)) {
        sendPage(reply, 403, forbiddenPage(web, FOR_ADMINS))
        return true
      }
      return false
    }

    app.get(PEOPLE_PATH, SIGNED_IN_PAGE, async (request, reply) => {
      const web = request.web as WebContext
      if (!administers(web)) return sendPage(reply, 403, forbiddenPage(web, FOR_ADMINS))
      const { done } = request.query as { done?: string }
      return show(reply, web, 200, { notice: (done && NOTICES[done]) || null })
    })

    app.post(`${PEOPLE_PATH}/invitations`, SIGNED_IN_PAGE, async (request, reply) => {
      const web = request.web as WebContext
      if (refused(request, reply)) return reply
      const form = formOf(request)
      const state = { email: field(form.email), name: field(form.name), role: field(form.role) }
      let issued: Awaited<ReturnType<typeof invite>>
      try {
        const input = checkedInput<{ email: string; role: 'admin' | 'member' | 'guest' }>(
          CreateInvitationBody,
          { email: state.email, role: state.role },
        )
        issued = await invite(request, { ...input, ...(state.name ? { name: state.name } : {}) })
      } catch (error) {
        const problem = formProblem(error)
        if (!problem) throw error
        if (problem.status === 403) return sendProblemPage(reply, web, error)
        const why = [...problem.fields.values()][0] ?? problem.detail
        return show(reply, web, problem.status, { form: { ...state, error: why } })
      }
      const { secret, row } = issued
      if (!secret || !row)
        return sendPage(reply, 200, invitedPage(web, { email: null, url: null, mailed: null }))
      const url = `${deps.config.publicUrl}${joinPath(secret)}`
      const mailed = await emailInvitation(deps, { row, token: secret }, url, request.log)
      return sendPage(reply, 201, invitedPage(web, { email: row.email, url, mailed }))
    })

    // The invitation, through the API's command; a resubmitted form replays and shows no link.
    function invite(
      request: FastifyRequest,
      input: { email: string; role: 'admin' | 'member' | 'guest'; name?: string },
    ) {
      return webIssue(
        deps,
        request,
        { operation: 'invite', formKey: formOf(request).form_key },
        async (w) => {
          const made = await createInvitation(w, input)
          return { secret: made.token, row: made.row }
        },
      )
    }

    // A change from a form of the page: the API's command, then back to the list with a notice.
    async function change(
      request: FastifyRequest,
      reply: FastifyReply,
      done: string,
      command: (w: WriteContext) => Promise<unknown>,
    ) {
      const web = request.web as WebContext
      if (refused(request, reply)) return reply
      try {
        await webWrite(deps, request, { operation: `people ${done}` }, async (w) => {
          await command(w)
          return { status: 200, body: {} }
        })
      } catch (error) {
        return sendProblemPage(reply, web, error)
      }
      return seeOther(reply, `${PEOPLE_PATH}?done=${done}`)
    }

    if (deps.config.sso) {
      app.post(SSO_DOMAIN_PATH, SIGNED_IN_PAGE, async (request, reply) => {
        const web = request.web as WebContext
        if (refused(request, reply)) return reply
        const value = field(formOf(request).domain)
        try {
          await webWrite(deps, request, { operation: 'people sso-domain' }, async (w) => {
            await setSsoEmailDomain(w, value)
            return { status: 200, body: {} }
          })
        } catch (error) {
          const problem = formProblem(error)
          if (!problem) throw error
          if (problem.status === 403) return sendProblemPage(reply, web, error)
          const why = [...problem.fields.values()][0] ?? problem.detail
          return show(reply, web, problem.status, { sso: { value, error: why } })
        }
        return seeOther(reply, `${PEOPLE_PATH}?done=domain`)
      })
    }

    app.post(`${PEOPLE_PATH}/:id/role`, SIGNED_IN_PAGE, async (request, reply) => {
      const { id } = request.params as { id: string }
      const role = field(formOf(request).role)
      return change(request, reply, 'role', async (w) => {
        if (ROLES.includes(role)) return changeRole(w, id, role as Role)
        // The person is looked for first: an unknown one is the 404 page, whatever the form.
        requireAdministrator(w.principal)
        await targetPerson(w, id)
        throw unknownRole()
      })
    })

    app.post(`${PEOPLE_PATH}/:id/reactivate`, SIGNED_IN_PAGE, async (request, reply) => {
      const { id } = request.params as { id: string }
      return change(request, reply, 'reactivated', (w) => reactivatePerson(w, id))
    })

    app.get(`${PEOPLE_PATH}/:id/deactivate`, SIGNED_IN_PAGE, async (request, reply) => {
      const web = request.web as WebContext
      if (!administers(web)) return sendPage(reply, 403, forbiddenPage(web, FOR_ADMINS))
      const { id } = request.params as { id: string }
      const person = await activePerson(deps.db, web, id)
      if (!person) return sendPage(reply, 404, notFoundPage(web))
      return sendPage(
        reply,
        200,
        confirmPage(web, {
          title: 'Deactivate',
          lede: `Deactivate ${person.name}? They are signed out at once; their API keys, app authorizations and webhooks stop working, and the invitations they sent are revoked. What they wrote stays. You can reactivate them later, but nothing that was ended comes back.`,
          action: `${PEOPLE_PATH}/${id}/deactivate`,
          label: `Deactivate ${person.name}`,
          back: PEOPLE_PATH,
          current: PEOPLE_PATH,
        }),
      )
    })

    app.post(`${PEOPLE_PATH}/:id/deactivate`, SIGNED_IN_PAGE, async (request, reply) => {
      const { id } = request.params as { id: string }
      return change(request, reply, 'deactivated', (w) => deactivatePerson(w, id))
    })

    app.get(`${PEOPLE_PATH}/invitations/:id/revoke`, SIGNED_IN_PAGE, async (request, reply) => {
      const web = request.web as WebContext
      if (!administers(web)) return sendPage(reply, 403, forbiddenPage(web, FOR_ADMINS))
      const { id } = request.params as { id: string }
      const invitation = await pendingInvitation(
        deps.db,
        web.session.workspaceId,
        id,
        deps.clock.now(),
      )
      if (!invitation) return sendPage(reply, 404, notFoundPage(web))
      return sendPage(
        reply,
        200,
        confirmPage(web, {
          title: 'Revoke',
          lede: `Revoke the invitation of ${invitation.email}? Its link stops working at once.`,
          action: `${PEOPLE_PATH}/invitations/${id}/revoke`,
          label: `Revoke the invitation of ${invitation.email}`,
          back: PEOPLE_PATH,
          current: PEOPLE_PATH,
        }),
      )
    })

    app.post(`${PEOPLE_PATH}/invitations/:id/revoke`, SIGNED_IN_PAGE, async (request, reply) => {
      const { id } = request.params as { id: string }
      return change(request, reply, 'revoked', (w) => revokeInvitation(w, id))
    })
  }
}

// A role the page never offers: the form was changed by hand.
function unknownRole(): ProblemError {
  return new ProblemError('validation_failed', 'Choose one of the roles the page offers.')
}

// A person of the workspace the session sees, not deactivated: whom the confirmation names.
async function activePerson(db: Db, web: WebContext, id: string) {
  const [person] = await listPeople(db, web.caller.visibility, { ids: [id] }, null, 1)
  return person && !person.deactivated_at ? person : undefined
}

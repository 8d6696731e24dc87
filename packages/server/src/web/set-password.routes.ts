import type { FastifyInstance } from 'fastify'
import type { AppDeps } from '../app-deps.ts'
import { hashPassword } from '../lib/password.ts'
import { passwordProblem } from '../setup/owner-input.ts'
import { findPasswordLink, usePasswordLink } from '../setup/password-links.ts'
import { fromOwnPages, oneTimeFormCsrfToken, sameToken } from './csrf.ts'
import { setEmailPassword } from './email-passwords.ts'
import { forbiddenFormPage } from './message.view.ts'
import { sendPage } from './page-headers.ts'
import { ensurePreSession, preSessionOf } from './pre-session.ts'
import { seeOther } from './see-other.ts'
import { passwordLinkGonePage, SET_PASSWORD_PATH, setPasswordPage } from './set-password.view.ts'
import type { WebCookies } from './web-cookies.ts'
import { endSession, startSession } from './web-session.ts'
import { formOf } from './web-write.ts'

// No bearer token, not in the OpenAPI document, and the URL holds a secret: never logged whole.
const PAGE = { config: { public: true, urlHoldsSecret: true }, schema: { hide: true } } as const

/**
 * GET and POST /set-password/:token: a single-use link to choose a password (made by
 * `workgraph init --no-password`). The password is the email's in every workspace, as
 * `workgraph user set-password` sets it (email-passwords.ts), which ends the email's sessions;
 * then the link's person is signed in. A link used, expired or unknown gets one page (410), as an
 * invitation's does.
 */
export function setPasswordRoutes(deps: AppDeps, cookies: WebCookies) {
  const key = deps.webKeys.csrfKey
  return async (app: FastifyInstance) => {
    app.get(`${SET_PASSWORD_PATH}/:token`, PAGE, async (request, reply) => {
      const { token } = request.params as { token: string }
      const person = await findPasswordLink(deps.db, token, deps.clock.now())
      if (!person) return sendPage(reply, 410, passwordLinkGonePage())
      const preSession = ensurePreSession(request, reply, cookies)
      const page = setPasswordPage({
        action: `${SET_PASSWORD_PATH}/${token}`,
        csrf: oneTimeFormCsrfToken(key, 'set-password', preSession),
        name: person.name,
        email: person.email,
        problem: null,
      })
      return sendPage(reply, 200, page)
    })

    app.post(`${SET_PASSWORD_PATH}/:token`, PAGE, async (request, reply) => {
      const { token } = request.params as { token: string }
      // A link that no longer works says so, whatever the form: there is nothing to protect.
      const person = await findPasswordLink(deps.db, token, deps.clock.now())
      if (!person) return sendPage(reply, 410, passwordLinkGonePage())
      const form = formOf(request)
      const preSession = preSessionOf(request, cookies)
      const csrf = preSession ? oneTimeFormCsrfToken(key, 'set-password', preSession) : null
      if (!csrf || !fromOwnPages(request, deps.config.publicUrl) || !sameToken(form.csrf, csrf))
        return sendPage(reply, 403, forbiddenFormPage(null))
      const password = typeof form.password === 'string' ? form.password : ''
      const short = passwordProblem(password)
      if (short) {
        const problem = { status: 422, detail: short, fields: new Map([['/password', short]]) }
        const page = setPasswordPage({
          action: `${SET_PASSWORD_PATH}/${token}`,
          csrf,
          name: person.name,
          email: person.email,
          problem,
        })
        return sendPage(reply, 422, page)
      }
      const hash = await hashPassword(password)
      const now = deps.clock.now()
      // The link is spent, the email's password set and its sessions ended, and the new session
      // started, all at once: of two uses of one link, only one does any of it.
      const session = await deps.db.transaction().execute(async (trx) => {
        const person = await usePasswordLink(trx, token, now)
        if (!person) return null
        await setEmailPassword(trx, { email: person.email, hash, now })
        return startSession(trx, {
          workspaceId: person.workspaceId,
          personId: person.personId,
          now,
        })
      })
      if (!session) return sendPage(reply, 410, passwordLinkGonePage())
      const previous = request.cookies[cookies.session]
      if (previous) await endSession(deps.db, previous, now)
      reply.setCookie(cookies.session, session, cookies.options)
      reply.clearCookie(cookies.signIn, cookies.options)
      return seeOther(reply, '/')
    })
  }
}

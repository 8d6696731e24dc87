import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { AppDeps } from '../app-deps.ts'
import { hashPassword } from '../lib/password.ts'
import { type StartedWorkspace, startWorkspace } from '../setup/create-workspace.ts'
import { NewOwner, passwordProblem, trimmedOwner } from '../setup/owner-input.ts'
import { hasWorkspace, withSetupLock } from '../setup/setup-lock.ts'
import { isSetupToken } from '../setup/setup-tokens.ts'
import { fromOwnPages, oneTimeFormCsrfToken, sameToken } from './csrf.ts'
import { checkedInput, type FormProblem, formProblem } from './form-problems.ts'
import { forbiddenFormPage } from './message.view.ts'
import { sendPage } from './page-headers.ts'
import { ensurePreSession, preSessionOf } from './pre-session.ts'
import { alreadySetUpPage, SETUP_PATH, setupDonePage, setupPage } from './setup.view.ts'
import { sessionCredentialId, webContextOf } from './web-context.ts'
import type { WebCookies } from './web-cookies.ts'
import { hashSessionValue, startSession } from './web-session.ts'
import { formOf } from './web-write.ts'

// No bearer token, not in the OpenAPI document; the URL holds a secret, never logged whole; and
// while closed it is a path that does not exist, whatever the method.
const PAGE = {
  config: { public: true, urlHoldsSecret: true, hiddenPath: true },
  schema: { hide: true },
} as const

/**
 * GET and POST /setup: the first-run page of a server with no workspace (docs/dashboard.md,
 * "First run"). It needs the one-time token the server printed at start; without it, with a
 * wrong one, or once any workspace exists, the answer is the 404 of a path that does not exist.
 * The form makes the workspace and its owner, signs them in and shows their first API key once.
 */
export function setupRoutes(deps: AppDeps, cookies: WebCookies) {
  const key = deps.webKeys.csrfKey
  return async (app: FastifyInstance) => {
    app.get(SETUP_PATH, PAGE, async (request, reply) => {
      const token = (request.query as { token?: unknown }).token
      if (!(await setupIsOpen(token))) return reply.callNotFound()
      const preSession = ensurePreSession(request, reply, cookies)
      return sendPage(
        reply,
        200,
        setupPage({
          csrf: oneTimeFormCsrfToken(key, 'setup', preSession),
          token: token as string,
          values: {},
          problem: null,
        }),
      )
    })

    app.post(SETUP_PATH, PAGE, async (request, reply) => {
      const form = formOf(request)
      if (!(await setupIsOpen(form.token))) return closed(request, reply)
      const preSession = preSessionOf(request, cookies)
      const csrf = preSession ? oneTimeFormCsrfToken(key, 'setup', preSession) : null
      if (!csrf || !fromOwnPages(request, deps.config.publicUrl) || !sameToken(form.csrf, csrf))
        return sendPage(reply, 403, forbiddenFormPage(null))
      const owner = trimmedOwner(form)
      const password = typeof form.password === 'string' ? form.password : ''
      const problem = problemOf(owner, password)
      if (problem) {
        const values = {
          workspace_name: owner.workspace_name,
          name: owner.name,
          email: owner.email,
        }
        const page = setupPage({ csrf, token: form.token as string, values, problem })
        return sendPage(reply, problem.status, page)
      }
      const hash = await hashPassword(password)
      const now = deps.clock.now()
      let session: string | null = null
      const started: StartedWorkspace | null = await withSetupLock(deps.db, async (trx) => {
        // Another submission may have made the workspace while this one waited for the lock.
        if ((await hasWorkspace(trx)) || !(await isSetupToken(trx, form.token, now))) return null
        return startWorkspace(trx, owner, {
          password: { hash },
          now,
          async actor(trx, created) {
            const value = await startSession(trx, {
              workspaceId: created.workspaceId,
              personId: created.personId,
              now,
            })
            session = value
            const userAgent = request.headers['user-agent']
            return {
              workspaceId: created.workspaceId,
              actorId: created.personId,
              tokenId: sessionCredentialId(hashSessionValue(value)),
              tokenKind: 'web_session',
              clientId: null,
              requestId: request.id,
              ip: request.ip,
              userAgent: typeof userAgent === 'string' ? userAgent : null,
              via: 'web',
            }
          },
        })
      })
      const web = started && session ? await webContextOf(deps, session) : null
      if (!started || !session || !web) return closed(request, reply)
      reply.setCookie(cookies.session, session, cookies.options)
      reply.clearCookie(cookies.signIn, cookies.options)
      const done = setupDonePage(web, { apiKey: started.apiKey, publicUrl: deps.config.publicUrl })
      return sendPage(reply, 201, done)
    })

    // Open while there is no workspace, to a token the server printed.
    async function setupIsOpen(token: unknown): Promise<boolean> {
      if (await hasWorkspace(deps.db)) return false
      return isSetupToken(deps.db, token, deps.clock.now())
    }

    // The page is gone: a 404 as for any unknown path, except for the person the form just
    // signed in, whose reload says what happened instead.
    async function closed(request: FastifyRequest, reply: FastifyReply) {
      if (request.web && (await hasWorkspace(deps.db)))
        return sendPage(reply, 200, alreadySetUpPage(request.web))
      return reply.callNotFound()
    }
  }
}

// What is wrong with the form, field by field (the API's sentences), or null.
function problemOf(owner: NewOwner, password: string): FormProblem | null {
  const fields = new Map<string, string>()
  try {
    checkedInput(NewOwner, owner)
  } catch (error) {
    for (const [path, message] of formProblem(error)?.fields ?? []) fields.set(path, message)
  }
  const short = passwordProblem(password)
  if (short) fields.set('/password', short)
  if (fields.size === 0) return null
  return { status: 422, detail: 'The form has fields to correct.', fields }
}

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { AppDeps } from '../app-deps.ts'
import { fromOwnPages, sameToken, signInCsrfToken } from './csrf.ts'
import { forbiddenFormPage } from './message.view.ts'
import { sendPage } from './page-headers.ts'
import { ensurePreSession, preSessionOf } from './pre-session.ts'
import { safeReturnTo } from './return-to.ts'
import { seeOther } from './see-other.ts'
import { allowSignInAttempt, matchSignIn } from './sign-in.ts'
import { signInPage, workspaceChoicePage } from './sign-in.view.ts'
import type { WebCookies } from './web-cookies.ts'
import { endSession, startSession } from './web-session.ts'
import { type ChosenPerson, choiceValue, chosenPerson } from './workspace-choice.ts'

type Form = Record<string, unknown>

const PAGE = { config: { public: true }, schema: { hide: true } } as const
const WRONG = 'That email and password do not match an account.'
const TOO_MANY = 'Too many sign-in attempts. Wait a minute and try again.'
const LEDE = 'Sign in with your Workgraph email and password.'

/**
 * GET and POST /sign-in, POST /sign-in/workspace and POST /sign-out. The people, password hashes
 * and attempt budgets are the OAuth pages' own (web/sign-in.ts): one sign-in, two front doors.
 */
export function signInRoutes(deps: AppDeps, cookies: WebCookies) {
  const key = deps.webKeys.csrfKey
  return async (app: FastifyInstance) => {
    app.get('/sign-in', PAGE, async (request, reply) => {
      const returnTo = safeReturnTo((request.query as Form).return_to)
      if (request.web) return seeOther(reply, returnTo)
      return showForm(request, reply, 200, { returnTo })
    })

    app.post('/sign-in', PAGE, async (request, reply) => {
      const form = (request.body ?? {}) as Form
      const returnTo = safeReturnTo(form.return_to)
      const preSession = preSessionOf(request, cookies)
      if (!preSession || !formIsOurs(request, signInCsrfToken(key, preSession)))
        return sendPage(reply, 403, forbiddenFormPage(null))
      const email = text(form.email)
      const password = text(form.password)
      const allowed = await allowSignInAttempt(deps.rateLimits, {
        email,
        ip: request.ip,
        perMinute: deps.config.oauthSignInsPerMinute,
        now: deps.clock.now(),
      })
      if (!allowed) {
        reply.header('retry-after', '60')
        return showForm(request, reply, 429, { returnTo, email, error: TOO_MANY })
      }
      const matches = await matchSignIn(deps.db, email, password, null)
      const [only] = matches
      if (!only) return showForm(request, reply, 401, { returnTo, email, error: WRONG })
      if (matches.length === 1) return signIn(request, reply, only, returnTo)
      const now = deps.clock.now()
      return sendPage(
        reply,
        200,
        workspaceChoicePage({
          action: '/sign-in/workspace',
          csrf: signInCsrfToken(key, preSession),
          hidden: { return_to: returnTo },
          lede: 'You belong to several workspaces. Choose the one to open.',
          options: matches.map((match) => ({
            value: choiceValue(key, preSession, match, now),
            workspaceName: match.workspaceName,
            role: match.role,
          })),
        }),
      )
    })

    app.post('/sign-in/workspace', PAGE, async (request, reply) => {
      const form = (request.body ?? {}) as Form
      const preSession = preSessionOf(request, cookies)
      if (!preSession || !formIsOurs(request, signInCsrfToken(key, preSession)))
        return sendPage(reply, 403, forbiddenFormPage(null))
      // The choice names a person and proves their password was just verified in this browser.
      const person = chosenPerson(key, preSession, form.choice, deps.clock.now())
      if (!person) return sendPage(reply, 403, forbiddenFormPage(null))
      return signIn(request, reply, person, safeReturnTo(form.return_to))
    })

    app.post('/sign-out', PAGE, async (request, reply) => {
      const web = request.web
      if (!web) return seeOther(reply, '/sign-in')
      if (!formIsOurs(request, web.csrf)) return sendPage(reply, 403, forbiddenFormPage(web))
      await endSession(deps.db, request.cookies[cookies.session] ?? '', deps.clock.now())
      reply.clearCookie(cookies.session, cookies.options)
      return seeOther(reply, '/sign-in')
    })

    // A new session value at every sign-in, and the one the browser had (if any) is ended, so
    // an id planted before sign-in is never the one that is signed in (no session fixation).
    async function signIn(
      request: FastifyRequest,
      reply: FastifyReply,
      person: ChosenPerson,
      returnTo: string,
    ) {
      const now = deps.clock.now()
      const previous = request.cookies[cookies.session]
      if (previous) await endSession(deps.db, previous, now)
      const value = await startSession(deps.db, { ...person, now })
      reply.setCookie(cookies.session, value, cookies.options)
      reply.clearCookie(cookies.signIn, cookies.options)
      return seeOther(reply, returnTo)
    }

    function showForm(
      request: FastifyRequest,
      reply: FastifyReply,
      status: number,
      input: { returnTo: string; email?: string; error?: string },
    ) {
      const preSession = ensurePreSession(request, reply, cookies)
      return sendPage(
        reply,
        status,
        signInPage({
          action: '/sign-in',
          csrf: signInCsrfToken(key, preSession),
          hidden: { return_to: input.returnTo },
          lede: LEDE,
          ...(input.email !== undefined && { email: input.email }),
          ...(input.error !== undefined && { error: input.error }),
        }),
      )
    }

    function formIsOurs(request: FastifyRequest, expected: string): boolean {
      const form = (request.body ?? {}) as Form
      return fromOwnPages(request, deps.config.publicUrl) && sameToken(form.csrf, expected)
    }
  }
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : ''
}

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { AppDeps } from '../app-deps.ts'
import { fromOwnPages, sameToken, signInCsrfToken } from './csrf.ts'
import { forbiddenFormPage } from './message.view.ts'
import { sendPage } from './page-headers.ts'
import { ensurePreSession, preSessionOf } from './pre-session.ts'
import { safeReturnTo } from './return-to.ts'
import { seeOther } from './see-other.ts'
import { signInBrowser } from './session-start.ts'
import { allowSignInAttempt, matchSignIn } from './sign-in.ts'
import { type SignInOffer, signInPage, workspaceChoicePage } from './sign-in.view.ts'
import { ssoStartPath } from './sso-start.ts'
import type { WebCookies } from './web-cookies.ts'
import { endSession } from './web-session.ts'
import { type ChosenPerson, choiceValue, chosenPerson } from './workspace-choice.ts'

type Form = Record<string, unknown>

const PAGE = { config: { public: true }, schema: { hide: true } } as const
const WRONG = 'That email and password do not match an account.'
const TOO_MANY = 'Too many sign-in attempts. Wait a minute and try again.'
const LEDE = 'Sign in with your Workgraph email and password.'
const SSO_LEDE = 'Sign in to your Workgraph workspace.'
const PASSWORDS_OFF = 'Signing in with a password is turned off on this server.'

/**
 * GET and POST /sign-in, POST /sign-in/workspace and POST /sign-out. The people, password hashes
 * and attempt budgets are the OAuth pages' own (web/sign-in.ts): one sign-in, two front doors.
 * The page offers the identity provider too when there is one (sso.routes.ts), and only it when
 * PASSWORD_SIGN_IN is off; then a posted password is refused before anything is counted.
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
      if (!deps.config.passwordSignIn)
        return showForm(request, reply, 403, { returnTo, error: PASSWORDS_OFF })
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
      const returnTo = safeReturnTo(form.return_to)
      // A choice proves a password: none counts while passwords are off.
      if (!deps.config.passwordSignIn)
        return showForm(request, reply, 403, { returnTo, error: PASSWORDS_OFF })
      // The choice names a person and proves their password was just verified in this browser.
      const person = chosenPerson(key, preSession, form.choice, deps.clock.now())
      if (!person) return sendPage(reply, 403, forbiddenFormPage(null))
      return signIn(request, reply, person, returnTo)
    })

    app.post('/sign-out', PAGE, async (request, reply) => {
      const web = request.web
      if (!web) return seeOther(reply, '/sign-in')
      if (!formIsOurs(request, web.csrf)) return sendPage(reply, 403, forbiddenFormPage(web))
      await endSession(deps.db, request.cookies[cookies.session] ?? '', deps.clock.now())
      reply.clearCookie(cookies.session, cookies.options)
      return seeOther(reply, '/sign-in')
    })

    async function signIn(
      request: FastifyRequest,
      reply: FastifyReply,
      person: ChosenPerson,
      returnTo: string,
    ) {
      await signInBrowser(deps, cookies, request, reply, person)
      return seeOther(reply, returnTo)
    }

    function showForm(
      request: FastifyRequest,
      reply: FastifyReply,
      status: number,
      input: { returnTo: string; email?: string; error?: string },
    ) {
      const preSession = ensurePreSession(request, reply, cookies)
      const { sso, passwordSignIn } = deps.config
      const offer: SignInOffer = {
        passwords: passwordSignIn,
        ...(sso && { sso: { href: ssoStartPath(input.returnTo), name: sso.name } }),
      }
      return sendPage(
        reply,
        status,
        signInPage({
          action: '/sign-in',
          csrf: signInCsrfToken(key, preSession),
          hidden: { return_to: input.returnTo },
          lede: sso ? SSO_LEDE : LEDE,
          ...offer,
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

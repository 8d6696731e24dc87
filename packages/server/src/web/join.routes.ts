import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { emailPasswordHash } from '../access/email-password-hashes.ts'
import { hashSecret, isWellFormedSecret, SECRET_PREFIX } from '../access/secrets.ts'
import type { AppDeps } from '../app-deps.ts'
import type { AuditActor } from '../audit/audit-writer.ts'
import { joinPath } from '../graph/people/invitations.commands.ts'
import { pendingInvitationByToken } from '../graph/people/invitations.queries.ts'
import { recordPersonJoined } from '../graph/people/person-joined.ts'
import { newId } from '../lib/ids.ts'
import { hashPassword, isPasswordHash, verifyPassword } from '../lib/password.ts'
import { PASSWORD_LENGTH } from '../setup/owner-input.ts'
import { fromOwnPages, sameToken, signInCsrfToken } from './csrf.ts'
import { setEmailPassword } from './email-passwords.ts'
import { invitationGonePage, joinPage } from './join.view.ts'
import { forbiddenFormPage, refusedPage } from './message.view.ts'
import { sendPage } from './page-headers.ts'
import { ensurePreSession, preSessionOf } from './pre-session.ts'
import { seeOther } from './see-other.ts'
import { allowSignInAttempt } from './sign-in.ts'
import { ssoStartPath } from './sso-start.ts'
import type { WebCookies } from './web-cookies.ts'
import { endSession, startSession } from './web-session.ts'
import { formOf } from './web-write.ts'

// The path holds the link's token: request logs name the route instead (http/request-log.ts).
const PAGE = { config: { public: true, urlHoldsSecret: true }, schema: { hide: true } } as const
const TOO_MANY = 'Too many attempts. Wait a minute and try again.'
const PASSWORDS_OFF = 'Choosing a password is turned off on this server: join through the button.'

type Pending = NonNullable<Awaited<ReturnType<typeof pendingInvitationByToken>>>

// Why a join did not happen, to show beside the form, and its status.
class JoinRefused extends Error {
  readonly status: number
  constructor(status: number, message: string) {
    super(message)
    this.status = status
  }
}

// The link was used, revoked or expired between the form and its submission.
class InvitationGone extends Error {}

/**
 * GET and POST /join/:token: the page an invitation's link opens (docs/dashboard.md, "Joining").
 * It asks for a name and a new password, or the email's password when it already signs in
 * elsewhere (one password per email, email-passwords.ts); then, in one transaction, makes the
 * person with the invitation's role, uses the invitation up and starts their session. A link
 * that does not work, whatever the reason, gets one page (410). With an identity provider the
 * page offers it too: signing in there as the invited email accepts the invitation
 * (sso/sso-options.ts); with PASSWORD_SIGN_IN off it offers only that, and a posted form is refused.
 */
export function joinRoutes(deps: AppDeps, cookies: WebCookies) {
  const key = deps.webKeys.csrfKey
  return async (app: FastifyInstance) => {
    app.get('/join/:token', PAGE, async (request, reply) => {
      const invitation = await pendingOf(request)
      if (!invitation) return sendPage(reply, 410, invitationGonePage())
      return showForm(request, reply, 200, invitation, {})
    })

    app.post('/join/:token', PAGE, async (request, reply) => {
      const preSession = preSessionOf(request, cookies)
      const form = formOf(request)
      if (
        !preSession ||
        !fromOwnPages(request, deps.config.publicUrl) ||
        !sameToken(form.csrf, signInCsrfToken(key, preSession))
      )
        return sendPage(reply, 403, forbiddenFormPage(null))
      const invitation = await pendingOf(request)
      if (!invitation) return sendPage(reply, 410, invitationGonePage())
      if (!deps.config.passwordSignIn)
        return showForm(request, reply, 403, invitation, { error: PASSWORDS_OFF })
      const name = typeof form.name === 'string' ? form.name.trim() : ''
      const password = typeof form.password === 'string' ? form.password : ''
      const now = deps.clock.now()
      const allowed = await allowSignInAttempt(deps.rateLimits, {
        email: invitation.email,
        ip: request.ip,
        perMinute: deps.config.oauthSignInsPerMinute,
        now,
      })
      if (!allowed) {
        reply.header('retry-after', '60')
        return showForm(request, reply, 429, invitation, { name, error: TOO_MANY })
      }
      let value: string
      try {
        const hash = await passwordHashFor(invitation.email, name, password)
        value = await join(request, name, hash)
      } catch (error) {
        if (error instanceof InvitationGone) return sendPage(reply, 410, invitationGonePage())
        if (!(error instanceof JoinRefused)) throw error
        if (error.status === 409) return sendPage(reply, 409, refusedPage(null, error.message))
        return showForm(request, reply, error.status, invitation, { name, error: error.message })
      }
      const previous = request.cookies[cookies.session]
      if (previous) await endSession(deps.db, previous, deps.clock.now())
      reply.setCookie(cookies.session, value, cookies.options)
      reply.clearCookie(cookies.signIn, cookies.options)
      deps.writeHooks.afterCommit?.()
      return seeOther(reply, '/')
    })

    // The hash the new person signs in with: the email's own when it has one (after checking the
    // password against it), else the new password's. Refuses what the form got wrong.
    async function passwordHashFor(
      email: string,
      name: string,
      password: string,
    ): Promise<{ hash: string; isNew: boolean }> {
      if (name.length === 0 || name.length > 200)
        throw new JoinRefused(422, 'Give your name (1 to 200 characters).')
      const existing = await emailPasswordHash(deps.db, email)
      if (existing && isPasswordHash(existing)) {
        if (password.length > PASSWORD_LENGTH.max || !(await verifyPassword(password, existing)))
          throw new JoinRefused(401, `That is not the password of ${email}.`)
        return { hash: existing, isNew: false }
      }
      if (password.length < PASSWORD_LENGTH.min || password.length > PASSWORD_LENGTH.max)
        throw new JoinRefused(
          422,
          `Choose a password of at least ${PASSWORD_LENGTH.min} characters (at most ${PASSWORD_LENGTH.max}).`,
        )
      return { hash: await hashPassword(password), isNew: true }
    }

    // One transaction: the person, their password, the invitation used up, `person.joined`,
    // and their session. Returns the session's cookie value.
    async function join(
      request: FastifyRequest,
      name: string,
      password: { hash: string; isNew: boolean },
    ): Promise<string> {
      const tokenHash = hashSecret((request.params as { token: string }).token)
      const now = deps.clock.now()
      const value = await deps.db.transaction().execute(async (trx) => {
        // Locked: of two submissions of one link, the second finds it used.
        const invitation = await pendingInvitationByToken(trx, tokenHash, now, true)
        if (!invitation) throw new InvitationGone()
        const ws = invitation.workspace_id
        const taken = await trx
          .selectFrom('people')
          .select('id')
          .where('workspace_id', '=', ws)
          .where((eb) => eb(eb.fn('lower', ['email']), '=', invitation.email.toLowerCase()))
          .executeTakeFirst()
        if (taken)
          throw new JoinRefused(409, 'This email is already a person of the workspace: sign in.')
        const person = await trx
          .insertInto('people')
          .values({
            workspace_id: ws,
            id: newId('person'),
            name,
            email: invitation.email,
            role: invitation.role,
            password_hash: password.isNew ? null : password.hash,
            created_at: now,
            updated_at: now,
          })
          .returning(['workspace_id', 'id', 'name', 'email', 'role', 'created_at', 'updated_at'])
          .executeTakeFirstOrThrow()
        // A new password is the email's in every workspace (one password per email).
        if (password.isNew)
          await setEmailPassword(trx, { email: invitation.email, hash: password.hash, now })
        await trx
          .updateTable('invitations')
          .set({ accepted_at: now, person_id: person.id })
          .where('workspace_id', '=', ws)
          .where('id', '=', invitation.id)
          .execute()
        const userAgent = request.headers['user-agent']
        const actor: AuditActor = {
          workspaceId: ws,
          actorId: person.id,
          // The invitation is the credential the person joined with.
          tokenId: invitation.id,
          tokenKind: 'invitation',
          clientId: null,
          requestId: request.id,
          ip: request.ip,
          userAgent: typeof userAgent === 'string' ? userAgent : null,
          via: 'web',
        }
        await recordPersonJoined({ trx, actor, now, urls: deps.urls }, person, {
          invitation_id: invitation.id,
        })
        return startSession(trx, { workspaceId: ws, personId: person.id, now })
      })
      deps.health.written()
      return value
    }

    async function pendingOf(request: FastifyRequest): Promise<Pending | undefined> {
      const { token } = request.params as { token: string }
      if (!isWellFormedSecret(SECRET_PREFIX.invitation, token)) return undefined
      return pendingInvitationByToken(deps.db, hashSecret(token), deps.clock.now())
    }

    async function showForm(
      request: FastifyRequest,
      reply: FastifyReply,
      status: number,
      invitation: Pending,
      input: { name?: string; error?: string },
    ) {
      const preSession = ensurePreSession(request, reply, cookies)
      const { token } = request.params as { token: string }
      const hash = await emailPasswordHash(deps.db, invitation.email)
      const { sso, passwordSignIn } = deps.config
      return sendPage(
        reply,
        status,
        joinPage({
          passwords: passwordSignIn,
          ...(sso && { sso: { href: ssoStartPath('/'), name: sso.name } }),
          action: joinPath(token),
          csrf: signInCsrfToken(key, preSession),
          workspaceName: invitation.workspace_name,
          email: invitation.email,
          role: invitation.role,
          name: input.name ?? invitation.name ?? '',
          hasPassword: hash !== null && isPasswordHash(hash),
          ...(input.error !== undefined && { error: input.error }),
        }),
      )
    }
  }
}

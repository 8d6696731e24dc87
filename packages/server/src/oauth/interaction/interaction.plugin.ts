import type { FastifyInstance } from 'fastify'
import { relyingPartyOf } from '../../sso/relying-party.ts'
import { formBodiesOnly } from '../../web/form-bodies.ts'
import { pageErrorHandler } from '../../web/page-errors.ts'
import { consentStep } from './consent.step.ts'
import { type InteractionDeps, interactionContext } from './interaction-context.ts'
import { showStep } from './show.step.ts'
import { signInStep } from './sign-in.step.ts'
import { ssoStep } from './sso.step.ts'
import { workspaceStep } from './workspace.step.ts'

/**
 * The sign-in and consent pages oidc-provider sends browsers to, one file per step: the page of
 * the step asked for (show), sign-in (a password, or the identity provider when there is one), the
 * choice of workspace, consent. They are the dashboard's
 * pages in everything but their path: its layout and stylesheet, its headers (CSP, no framing),
 * its form check (`fromOwnPages` and a token, here bound to the interaction) and its error pages.
 */
export function interactionPages(input: InteractionDeps) {
  const { deps } = input
  const ctx = interactionContext(input)
  return async (app: FastifyInstance) => {
    await formBodiesOnly(app)
    app.setErrorHandler(pageErrorHandler)
    await app.register(showStep(deps, ctx))
    await app.register(signInStep(deps, ctx))
    await app.register(workspaceStep(deps, ctx))
    await app.register(consentStep(deps, ctx))
    const party = relyingPartyOf(deps.config)
    if (party) await app.register(ssoStep(deps, ctx, party))
  }
}

import type { FastifyReply } from 'fastify'
import { localTarget } from './return-to.ts'

/**
 * Answers 303 See Other to a page of this site, never cached: every redirect of the dashboard,
 * sign-in and the OAuth pages goes through here, so none can lead off the site. A target that is
 * not a local one (web/return-to.ts) is sent to the home page instead. `origin` is the site's,
 * for a target given as an absolute address (the authorization server's own).
 */
export function seeOther(reply: FastifyReply, target: string, origin?: string): FastifyReply {
  return reply.header('cache-control', 'no-store').redirect(localTarget(target, origin) ?? '/', 303)
}

/**
 * The one redirect that leaves the site: to the identity provider's authorization endpoint, an
 * address openid-client builds from the provider's discovered metadata and never from the request
 * (sso.routes.ts).
 */
export function seeIdentityProvider(reply: FastifyReply, authorizationUrl: URL): FastifyReply {
  return reply.header('cache-control', 'no-store').redirect(authorizationUrl.href, 303)
}

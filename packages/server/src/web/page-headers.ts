import type { FastifyReply } from 'fastify'

// Each directive allows only this origin's own files: no inline script or style, so injected
// markup cannot run; frame-ancestors and X-Frame-Options stop clickjacking.
const POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
]

/** Headers of every dashboard page, and of the OAuth sign-in and consent pages. */
export const WEB_PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'content-security-policy': POLICY.join('; '),
  'x-frame-options': 'DENY',
  'referrer-policy': 'same-origin',
  'x-content-type-options': 'nosniff',
} as const

/** What a page may do beyond the dashboard's defaults. */
export interface PageOptions {
  /**
   * CSP sources a form of the page may also end up at: browsers check `form-action` along the
   * redirects that follow a submission, and an OAuth form's last redirect leads to the app.
   */
  readonly formTargets?: readonly string[]
}

/** The page headers, with the CSP widened as `options` says. */
export function pageHeaders(options: PageOptions = {}): Record<string, string> {
  const targets = options.formTargets ?? []
  if (targets.length === 0) return WEB_PAGE_HEADERS
  const policy = POLICY.map((directive) =>
    directive.startsWith('form-action ') ? `${directive} ${targets.join(' ')}` : directive,
  )
  return { ...WEB_PAGE_HEADERS, 'content-security-policy': policy.join('; ') }
}

/** Sends a rendered page with its status and the page headers. */
export function sendPage(
  reply: FastifyReply,
  status: number,
  page: string,
  options: PageOptions = {},
): FastifyReply {
  return reply.code(status).headers(pageHeaders(options)).send(page)
}

import type { FastifyReply } from 'fastify'

/**
 * Headers of every dashboard page. The CSP allows only this origin's own files: no inline script
 * or style, so injected markup cannot run; frame-ancestors and X-Frame-Options stop clickjacking.
 */
export const WEB_PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'x-frame-options': 'DENY',
  'referrer-policy': 'same-origin',
  'x-content-type-options': 'nosniff',
} as const

/** Sends a rendered page with its status and the page headers. */
export function sendPage(reply: FastifyReply, status: number, page: string): FastifyReply {
  return reply.code(status).headers(WEB_PAGE_HEADERS).send(page)
}

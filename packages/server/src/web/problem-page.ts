import type { FastifyReply } from 'fastify'
import { ProblemError } from '../api/problem-catalogue.ts'
import { notFoundPage, refusedPage } from './message.view.ts'
import { sendPage } from './page-headers.ts'
import type { WebContext } from './web-context.ts'

/**
 * Answers a command's refusal with a page of the same status: a 404 is the one 404 page, any
 * other 4xx says why; anything else is ours and goes on to the app's error handler.
 */
export function sendProblemPage(reply: FastifyReply, web: WebContext, error: unknown) {
  if (!(error instanceof ProblemError) || error.status >= 500) throw error
  if (error.status === 404) return sendPage(reply, 404, notFoundPage(web))
  for (const [name, value] of Object.entries(error.extras.headers ?? {})) reply.header(name, value)
  return sendPage(reply, error.status, refusedPage(web, error.message))
}

import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify'
import { toProblem } from '../api/problems.ts'
import { badRequestPage } from './message.view.ts'
import { sendPage } from './page-headers.ts'

/**
 * The error handler of the pages (the dashboard's and the OAuth sign-in and consent pages): bad
 * input gets the 400 page (or the problem's own 4xx status), never problem+json; only a failure
 * of ours goes on to the app's handler.
 */
export async function pageErrorHandler(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  const problem = toProblem(error)
  if (problem.status >= 500) throw error
  return sendPage(reply, problem.status, badRequestPage(request.web ?? null))
}

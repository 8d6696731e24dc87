import type { FastifyInstance } from 'fastify'
import { PROBLEMS, type ProblemCode } from '../api/problem-catalogue.ts'
import type { AppDeps } from '../app-deps.ts'
import { notFoundPage } from '../web/message.view.ts'
import { sendPage } from '../web/page-headers.ts'
import { errorIndexPage, errorPage } from './error-page.view.ts'

const PUBLIC_PAGE = { config: { public: true }, schema: { hide: true } } as const

/**
 * GET /errors and /errors/:code: the pages the problems' `type` URIs lead to, readable without
 * signing in (whoever holds an error may read what it means).
 */
export function errorPageRoutes(deps: AppDeps) {
  return async (app: FastifyInstance) => {
    app.get('/errors', PUBLIC_PAGE, async (_request, reply) =>
      sendPage(reply, 200, errorIndexPage()),
    )
    app.get<{ Params: { code: string } }>('/errors/:code', PUBLIC_PAGE, async (request, reply) => {
      const { code } = request.params
      if (!Object.hasOwn(PROBLEMS, code)) return sendPage(reply, 404, notFoundPage(null))
      return sendPage(reply, 200, errorPage(code as ProblemCode, deps.config.publicUrl))
    })
  }
}

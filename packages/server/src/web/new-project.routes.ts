import type { FastifyInstance } from 'fastify'
import type { Static } from 'typebox'
import { projectCreationRefusal } from '../access/project-stewards.ts'
import { ProblemError } from '../api/problem-catalogue.ts'
import type { AppDeps } from '../app-deps.ts'
import { createProject } from '../graph/projects/projects.commands.ts'
import { CreateProjectBody } from '../graph/projects/projects.schemas.ts'
import { checkedInput, formProblem } from './form-problems.ts'
import { sendHome } from './home-page.ts'
import { forbiddenFormPage } from './message.view.ts'
import { pagePath } from './neighbour-names.ts'
import { sendPage } from './page-headers.ts'
import { sendProblemPage } from './problem-page.ts'
import { seeOther } from './see-other.ts'
import { SIGNED_IN_PAGE, type WebContext } from './web-context.ts'
import { type FormBody, formOf, isOwnForm, webWrite } from './web-write.ts'

const text = (value: FormBody[string]) => (Array.isArray(value) ? (value[0] ?? '') : (value ?? ''))

/**
 * `POST /projects`, the home page's new-project form: the API's `createProject` for any
 * non-guest person, then the new project's page. A refused form comes back on the home page with
 * why; a resubmitted one (a double click) replays and opens the same project.
 */
export function newProjectRoutes(deps: AppDeps) {
  return async (app: FastifyInstance) => {
    app.post('/projects', SIGNED_IN_PAGE, async (request, reply) => {
      const web = request.web as WebContext
      if (!isOwnForm(request, deps.config.publicUrl))
        return sendPage(reply, 403, forbiddenFormPage(web))
      const refusal = projectCreationRefusal(web.caller.principal)
      if (refusal) return sendProblemPage(reply, web, new ProblemError('forbidden', refusal))
      const fields = formOf(request)
      const form = {
        name: text(fields.name),
        description: text(fields.description),
        visibility: text(fields.visibility) || 'workspace',
      }
      let stored: { id?: unknown }
      try {
        const body = checkedInput<Static<typeof CreateProjectBody>>(CreateProjectBody, {
          ...form,
          description: form.description.trim(),
        })
        const outcome = await webWrite(
          deps,
          request,
          {
            operation: 'project create',
            formKey: fields.form_key,
            stored: (made) => ({ id: (made as { id: string }).id }),
          },
          async (w) => ({ status: 201, body: await createProject(w, body) }),
        )
        stored = JSON.parse(outcome.body)
      } catch (error) {
        const problem = formProblem(error)
        if (!problem || problem.status === 403 || problem.status === 404)
          return sendProblemPage(reply, web, error)
        return sendHome(deps, reply, web, problem.status, { ...form, problem })
      }
      // A replay of a form the service refused holds no project: the home page, as it is now.
      if (typeof stored.id !== 'string') return seeOther(reply, '/')
      return seeOther(reply, pagePath(web.session.workspaceId, stored.id))
    })
  }
}

import type { FastifyReply } from 'fastify'
import { projectCreationRefusal } from '../access/project-stewards.ts'
import type { AppDeps } from '../app-deps.ts'
import { presentProject } from '../graph/projects/projects.present.ts'
import { listProjects } from '../graph/projects/projects.queries.ts'
import { findWorkspace } from '../graph/workspace/workspace.queries.ts'
import { homePage } from './home.view.ts'
import type { NewProjectForm } from './new-project.view.ts'
import { sendPage } from './page-headers.ts'
import { LIST_LIMIT } from './page-view.ts'
import type { WebContext } from './web-context.ts'
import { newFormKey } from './web-write.ts'

/**
 * Sends the home page: the workspace and the projects the person may open, and the new-project
 * form for those who may make one (shown again with why when it was refused).
 */
export async function sendHome(
  deps: AppDeps,
  reply: FastifyReply,
  web: WebContext,
  status: number,
  refused: NewProjectForm | null = null,
) {
  const projects = await listProjects(deps.db, web.caller.visibility, {}, null, LIST_LIMIT)
  const { workspace, memberCount } = await findWorkspace(deps.db, web.caller.visibility)
  const creates = projectCreationRefusal(web.caller.principal) === null
  return sendPage(
    reply,
    status,
    homePage(web, {
      workspaceName: workspace.name,
      memberCount,
      projects: projects.slice(0, LIST_LIMIT).map((row) => presentProject(row, deps.urls)),
      newProject: creates ? { formKey: newFormKey(), refused } : null,
    }),
  )
}

import type { Static } from 'typebox'
import { fencedPrincipal, resolvePrincipal } from '../../access/principal.ts'
import { visibilityFor } from '../../access/visibility.ts'
import type { WriteContext } from '../../writes/write-context.ts'
import { presentProject } from './projects.present.ts'
import { listProjects } from './projects.queries.ts'
import type { ProjectRecord } from './projects.schemas.ts'

/**
 * A project as its writer sees it once the write is made. The request's principal was resolved
 * before the write and may not know the membership the write itself changed, so the writer's
 * principal is resolved again in the write's transaction, through the same fence.
 */
export async function projectAsWriterSees(
  w: WriteContext,
  projectId: string,
): Promise<Static<typeof ProjectRecord>> {
  const { principal } = w
  const now = await resolvePrincipal(w.trx, {
    workspaceId: principal.workspaceId,
    actorId: principal.actorId,
    actorKind: principal.actorKind,
    role: principal.role,
  })
  const visibility = visibilityFor(fencedPrincipal(now, principal.fence))
  const [row] = await listProjects(w.trx, visibility, { ids: [projectId] }, null, 1)
  if (!row) throw new Error(`project ${projectId} is not visible to its writer`)
  return presentProject(row, w.deps.urls)
}

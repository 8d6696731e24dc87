import type { Static } from 'typebox'
import { syncResourceIndex } from '../../access/resource-index.ts'
import { readsKindOfId } from '../../access/scopes.ts'
import { canOpen, visibleAmong } from '../../access/visibility.ts'
import { namedReference } from '../../api/named-reference.ts'
import { notFound, ProblemError } from '../../api/problem-catalogue.ts'
import { requireVisible } from '../../api/require-visible.ts'
import { idKind, newId } from '../../lib/ids.ts'
import { requireProjectInFence, requireText, ruleBroken } from '../../writes/business-rule.ts'
import { insertRecorded, recordChange, type WriteContext } from '../../writes/write-context.ts'
import { presentCanvas } from './canvases.present.ts'
import { type CanvasRow, listCanvases } from './canvases.queries.ts'
import type { CanvasRecord, CreateCanvasBody, UpdateCanvasBody } from './canvases.schemas.ts'

type Canvas = Static<typeof CanvasRecord>

const LINKABLE = new Set(['project', 'canvas', 'task', 'okr'])

/**
 * Creates a canvas owned by the caller. Canvases belong to people, so a workspace token cannot
 * create one; and a canvas must be one its creator can open (a guest's canvas without a project
 * is private).
 */
export async function createCanvas(
  w: WriteContext,
  body: Static<typeof CreateCanvasBody>,
): Promise<Canvas> {
  const ws = w.principal.workspaceId
  if (w.principal.actorKind !== 'person')
    throw new ProblemError(
      'forbidden',
      'Canvases are owned by people; a workspace token cannot create one.',
    )
  requireText('/title', body.title)
  const input = {
    ...body,
    project_id: await namedReference(w.trx, w, 'project', body.project_id, '/project_id'),
  }
  await requireVisible(w.trx, w.visibility, [['/project_id', 'project', input.project_id]])
  requireProjectInFence(w.principal.fence, input.project_id ?? null)
  const visibility = input.visibility ?? 'project'
  if (visibility === 'project' && !input.project_id && !w.principal.isMember)
    throw ruleBroken('/visibility', "must be private for a guest's canvas without a project")
  const row = {
    workspace_id: ws,
    id: newId('canvas'),
    title: input.title,
    summary: input.summary ?? '',
    project_id: input.project_id ?? null,
    visibility,
    owner_id: w.principal.actorId,
    created_at: w.now,
    updated_at: w.now,
  }
  await insertRecorded(w, w.trx.insertInto('canvases').values(row).returningAll(), {
    verb: 'canvas.created',
    subjectId: row.id,
    subjectType: 'canvas',
    projectId: row.project_id,
    audit: {
      resourceId: row.id,
      resourceType: 'canvas',
      before: null,
      after: auditedCanvas(row, []),
    },
    eventObject: null,
  })
  return canvasFor(w, row.id)
}

/**
 * Changes a canvas's title, summary or links. Links name only resources the caller sees (may open,
 * and of a type its token reads); links the caller does not see stay, after the given ones, so an
 * edit never removes what its author could not see. A change to nothing, as the caller sees the
 * canvas, records nothing: restating the links one sees leaves their order with unseen ones alone.
 */
export async function updateCanvas(
  w: WriteContext,
  canvasId: string,
  input: Static<typeof UpdateCanvasBody>,
): Promise<Canvas> {
  const ws = w.principal.workspaceId
  if (idKind(canvasId) !== 'canvas' || !(await canOpen(w.trx, w.visibility, canvasId)))
    throw notFound()
  requireText('/title', input.title)
  const before = await w.trx
    .selectFrom('canvases')
    .selectAll()
    .where('workspace_id', '=', ws)
    .where('id', '=', canvasId)
    .executeTakeFirstOrThrow()
  const oldLinks = (
    await w.trx
      .selectFrom('canvas_links')
      .select('target_id')
      .where('workspace_id', '=', ws)
      .where('canvas_id', '=', canvasId)
      .orderBy('position')
      .execute()
  ).map((link) => link.target_id)
  const links = input.links ? await nextLinks(w, canvasId, input.links, oldLinks) : oldLinks
  const after = {
    ...before,
    title: input.title ?? before.title,
    summary: input.summary ?? before.summary,
  }
  const changes = Object.fromEntries(
    (['title', 'summary'] as const)
      .filter((field) => after[field] !== before[field])
      .map((field) => [field, { from: before[field], to: after[field] }]),
  )
  const linksChanged = links.join() !== oldLinks.join()
  if (Object.keys(changes).length === 0 && !linksChanged) return canvasFor(w, canvasId)

  await w.trx
    .updateTable('canvases')
    .set({ title: after.title, summary: after.summary, updated_at: w.now })
    .where('workspace_id', '=', ws)
    .where('id', '=', canvasId)
    .execute()
  if (linksChanged) {
    await w.trx
      .deleteFrom('canvas_links')
      .where('workspace_id', '=', ws)
      .where('canvas_id', '=', canvasId)
      .execute()
    if (links.length > 0)
      await w.trx
        .insertInto('canvas_links')
        .values(
          links.map((target, position) => ({
            workspace_id: ws,
            canvas_id: canvasId,
            target_id: target,
            position,
          })),
        )
        .execute()
  }
  await syncResourceIndex(w.trx, ws, { ids: [canvasId] })
  const updated = { ...after, updated_at: w.now }
  await recordChange(w, {
    verb: 'canvas.updated',
    subjectId: canvasId,
    subjectType: 'canvas',
    projectId: before.project_id,
    // Link ids stay out of activity: its readers may not be able to open every target.
    changes,
    audit: {
      resourceId: canvasId,
      resourceType: 'canvas',
      before: auditedCanvas(before, oldLinks),
      after: auditedCanvas(updated, links),
    },
    eventObject: presentCanvas(
      { ...updated, project_visible: true, owner_visible: true, links },
      w.deps.urls,
    ),
  })
  return canvasFor(w, canvasId)
}

// The caller's links, checked, then the existing links the caller does not see.
async function nextLinks(
  w: WriteContext,
  canvasId: string,
  given: readonly string[],
  old: readonly string[],
): Promise<string[]> {
  const open = await visibleAmong(w.trx, w.visibility, [...given, ...old])
  const scopes = w.caller.credential.scopes
  const seen = (id: string) => open.has(id) && readsKindOfId(scopes, id)
  given.forEach((target, i) => {
    if (!seen(target)) throw notFound(`/links/${i}`)
    if (!LINKABLE.has(idKind(target) ?? ''))
      throw ruleBroken(`/links/${i}`, 'must be a project, canvas, task or OKR')
    if (target === canvasId) throw ruleBroken(`/links/${i}`, 'must not be the canvas itself')
    if (given.indexOf(target) !== i) throw ruleBroken(`/links/${i}`, 'is already in the list')
  })
  if (given.join() === old.filter(seen).join()) return [...old]
  return [...given, ...old.filter((target) => !seen(target))]
}

async function canvasFor(w: WriteContext, id: string): Promise<Canvas> {
  const [row] = await listCanvases(w.trx, w.visibility, w.readableKinds, { ids: [id] }, null, 1)
  if (!row) throw new Error(`canvas ${id} is not visible to its writer`)
  return presentCanvas(row, w.deps.urls)
}

function auditedCanvas(
  row: Omit<CanvasRow, 'links' | 'project_visible' | 'owner_visible'>,
  links: readonly string[],
): Record<string, unknown> {
  const { workspace_id: _, created_at: __, updated_at: ___, ...fields } = row
  return { ...fields, links }
}

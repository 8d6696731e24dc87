import { canOpen, type Visibility } from '../access/visibility.ts'
import type { Db } from '../db/database.ts'
import { type IdKind, idKind } from '../lib/ids.ts'
import { notFound } from './problem-catalogue.ts'

/** An id given as a filter or in a body: where it was, what kind it must be, and its value. */
export type Reference = [pointer: string, kind: IdKind, id: string | undefined | null]

/**
 * Checks that each id given as a filter or reference names a resource of the expected kind that
 * the caller may open, and answers the API's one 404 otherwise: a filter naming a hidden project
 * is indistinguishable from one naming a project that does not exist.
 */
export async function requireVisible(
  db: Db,
  visibility: Visibility,
  references: Reference[],
): Promise<void> {
  for (const [pointer, kind, id] of references) {
    if (id === undefined || id === null) continue
    if (idKind(id) !== kind || !(await canOpen(db, visibility, id))) throw notFound(pointer)
  }
}

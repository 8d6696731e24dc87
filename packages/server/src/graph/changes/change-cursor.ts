import type { Principal } from '../../access/principal.ts'
import { bindingOf } from '../../api/paging.ts'
import { ProblemError } from '../../api/problem-catalogue.ts'
import type { CursorCodec } from '../../lib/cursor.ts'

/** What a feed cursor is bound to besides its signature: who follows, and with which filters. */
export interface ChangeCursorScope {
  principal: Principal
  types: readonly string[]
  project_id: string | undefined
}

/**
 * The binding of a feed cursor: the workspace and the principal's actor (not the credential, so
 * a person resumes after rotating a key) and the filters. A cursor used by anyone else or with
 * other filters is refused like a list cursor.
 */
function bindingOfFeed(scope: ChangeCursorScope): string {
  const { workspaceId, actorId } = scope.principal
  return bindingOf(
    `${workspaceId}/${actorId}`,
    '/v1/changes',
    {},
    {
      types: [...scope.types].sort().join(','),
      project_id: scope.project_id ?? null,
    },
  )
}

/** An opaque cursor at a feed position. */
export function encodeChangeCursor(
  codec: CursorCodec,
  scope: ChangeCursorScope,
  position: number,
): string {
  return codec.encode([position], bindingOfFeed(scope))
}

/** The position in a feed cursor; a malformed, forged or foreign one is a 400. */
export function decodeChangeCursor(
  codec: CursorCodec,
  scope: ChangeCursorScope,
  cursor: string,
): number {
  const position = codec.decode(cursor, bindingOfFeed(scope))?.[0]
  if (typeof position !== 'number' || !Number.isSafeInteger(position) || position < 0) {
    throw new ProblemError(
      'invalid_request',
      'The cursor is malformed, or belongs to another person or other filters.',
      { errors: [{ path: '/cursor', message: 'is not a cursor of this feed' }] },
    )
  }
  return position
}

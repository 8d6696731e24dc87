import type { CursorCodec, CursorPosition } from '../lib/cursor.ts'
import { type Authenticated, authenticated } from './authenticated.ts'
import { ProblemError } from './problem-catalogue.ts'

/** What a cursor binding reads of a request: its caller, its route and its path parameters. */
export interface RouteRequest extends Authenticated {
  readonly routeOptions: { readonly url?: string | undefined }
  readonly params: unknown
}

/** A page as the API returns it. */
export interface PageOf<T> {
  data: T[]
  next_cursor: string | null
}

/**
 * What a cursor is bound to: the credential, the route, its path parameters (the resource whose
 * comments or links are listed) and every filter except the cursor and the page size. A cursor
 * used with another token, on another resource or with other filters is refused.
 */
export function cursorBinding(request: RouteRequest, filters: Record<string, unknown>): string {
  return bindingOf(
    authenticated(request).credential.id,
    request.routeOptions.url ?? '',
    (request.params ?? {}) as Record<string, unknown>,
    filters,
  )
}

/**
 * A cursor binding without a request: the credential, the operation (a route, or an MCP tool),
 * its parameters and its filters. Cursors of `/v1` and of MCP tools never stand in for each other.
 */
export function bindingOf(
  credentialId: string,
  operation: string,
  params: Record<string, unknown>,
  filters: Record<string, unknown>,
): string {
  const canonical = (values: Record<string, unknown>) =>
    Object.keys(values)
      .filter((key) => key !== 'cursor' && key !== 'limit' && key !== 'max_tokens')
      .sort()
      .map((key) => [key, values[key]])
  return JSON.stringify([credentialId, operation, canonical(params), canonical(filters)])
}

/** The keyset position in a request's cursor, null without one; a bad cursor is a 400. */
export function readCursor(
  codec: CursorCodec,
  cursor: string | undefined,
  binding: string,
): CursorPosition | null {
  if (cursor === undefined) return null
  const position = codec.decode(cursor, binding)
  if (position === null) {
    throw new ProblemError(
      'invalid_request',
      'The cursor is malformed, or belongs to another token or other filters.',
      {
        errors: [{ path: '/cursor', message: 'is not a cursor of this query' }],
      },
    )
  }
  return position
}

/**
 * Cuts a page from `limit + 1` rows: the extra row only tells whether there is a next page, so a
 * page is never short while next_cursor is set.
 */
export function cutPage<Row, Item>(
  rows: readonly Row[],
  limit: number,
  position: (row: Row) => CursorPosition,
  codec: CursorCodec,
  binding: string,
  present: (row: Row) => Item,
): PageOf<Item> {
  const page = rows.slice(0, limit)
  const last = page.at(-1)
  return {
    data: page.map(present),
    next_cursor:
      rows.length > limit && last !== undefined ? codec.encode(position(last), binding) : null,
  }
}

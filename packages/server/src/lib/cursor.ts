import { createHash, createHmac, timingSafeEqual } from 'node:crypto'

/** A keyset position: the sort key values of the last item of a page. */
export type CursorPosition = readonly (string | number | null)[]

/**
 * Opaque paging cursors: a keyset position, HMAC-signed and bound to the caller and the query, so
 * a cursor cannot be forged, edited, or replayed by another token or with other filters. It holds
 * only the position of an item the caller saw, never an offset or a hidden id.
 */
export class CursorCodec {
  readonly #key: Buffer

  constructor(secret: Buffer) {
    this.#key = createHmac('sha256', secret).update('workgraph cursor v1').digest()
  }

  /** A cursor for a position, bound to `binding` (caller, route and filters). */
  encode(position: CursorPosition, binding: string): string {
    const payload = Buffer.from(JSON.stringify({ p: position, b: bindingHash(binding) })).toString(
      'base64url',
    )
    return `${payload}.${this.#sign(payload)}`
  }

  /** The position in a cursor, or null when it is malformed, forged or bound to something else. */
  decode(cursor: string, binding: string): CursorPosition | null {
    const [payload, signature, ...rest] = cursor.split('.')
    if (!payload || !signature || rest.length > 0 || cursor.length > 2000) return null
    const expected = Buffer.from(this.#sign(payload))
    const given = Buffer.from(signature)
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null
    try {
      const decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as {
        p?: unknown
        b?: unknown
      }
      if (decoded.b !== bindingHash(binding) || !Array.isArray(decoded.p)) return null
      return decoded.p as CursorPosition
    } catch {
      return null
    }
  }

  #sign(payload: string): string {
    return createHmac('sha256', this.#key).update(payload).digest('base64url').slice(0, 22)
  }
}

function bindingHash(binding: string): string {
  return createHash('sha256').update(binding).digest('base64url').slice(0, 16)
}

import { createHash, createHmac, timingSafeEqual } from 'node:crypto'
import type { CursorPosition } from './cursor-position.ts'

/**
 * Cursors of the earlier format, a readable position with an HMAC: read, never made any more, so
 * that a follower of the change feed holding one keeps its place when the service is upgraded.
 * The HMAC is checked exactly as before, so an edited or foreign one is refused.
 */
export class SignedCursorReader {
  readonly #key: Buffer

  constructor(secret: Buffer) {
    this.#key = createHmac('sha256', secret).update('workgraph cursor v1').digest()
  }

  /** The position in a signed cursor, or null when it is malformed, forged or bound elsewhere. */
  decode(cursor: string, binding: string): CursorPosition | null {
    const [payload, signature, ...rest] = cursor.split('.')
    if (!payload || !signature || rest.length > 0) return null
    const expected = Buffer.from(
      createHmac('sha256', this.#key).update(payload).digest('base64url').slice(0, 22),
    )
    const given = Buffer.from(signature)
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null
    try {
      const decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as {
        p?: unknown
        b?: unknown
      }
      const boundTo = createHash('sha256').update(binding).digest('base64url').slice(0, 16)
      if (decoded.b !== boundTo || !Array.isArray(decoded.p)) return null
      return decoded.p as CursorPosition
    } catch {
      return null
    }
  }
}

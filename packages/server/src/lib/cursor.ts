import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto'
import { type CursorPosition, packPosition, unpackPosition } from './cursor-position.ts'
import { deriveCursorKey } from './derived-keys.ts'
import { SignedCursorReader } from './signed-cursor.ts'

export type { CursorPosition } from './cursor-position.ts'

const NONCE_BYTES = 12
const TAG_BYTES = 16
/** The longest cursor read at all; anything longer is refused unread. */
const MAX_CURSOR_LENGTH = 2000
const BASE64URL = /^[A-Za-z0-9_-]+$/

/**
 * Opaque paging cursors: a keyset position encrypted with AES-256-GCM under a key derived from
 * the service secret, with what the cursor is bound to (caller, route and filters) as associated
 * data. Nothing in a cursor can be read: not a position, a count, a time or an id. Each is sealed
 * with a fresh random nonce, so two cursors at one place differ and comparing them tells nothing,
 * and its length depends on the kinds of values in the position (and on the text of a name the
 * caller was shown), never on a number's size. An edited, cut or forged cursor, or one used with
 * another binding or made under another secret, does not open.
 */
export class CursorCodec {
  readonly #key: Buffer
  readonly #signed: SignedCursorReader

  constructor(secret: Buffer) {
    this.#key = deriveCursorKey(secret)
    this.#signed = new SignedCursorReader(secret)
  }

  /** A cursor for a position, bound to `binding` (caller, route and filters). */
  encode(position: CursorPosition, binding: string): string {
    const nonce = randomBytes(NONCE_BYTES)
    const cipher = createCipheriv('aes-256-gcm', this.#key, nonce, { authTagLength: TAG_BYTES })
    cipher.setAAD(Buffer.from(binding, 'utf8'))
    const sealed = Buffer.concat([cipher.update(packPosition(position)), cipher.final()])
    return Buffer.concat([nonce, sealed, cipher.getAuthTag()]).toString('base64url')
  }

  /** The position in a cursor, or null when it is malformed, forged or bound to something else. */
  decode(cursor: string, binding: string): CursorPosition | null {
    if (cursor.length > MAX_CURSOR_LENGTH) return null
    if (cursor.includes('.')) return this.#signed.decode(cursor, binding)
    if (!BASE64URL.test(cursor)) return null
    const bytes = Buffer.from(cursor, 'base64url')
    // Only the one spelling of these bytes: base64url's spare low bits may not vary.
    if (bytes.length <= NONCE_BYTES + TAG_BYTES || bytes.toString('base64url') !== cursor)
      return null
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.#key, bytes.subarray(0, NONCE_BYTES), {
        authTagLength: TAG_BYTES,
      })
      decipher.setAAD(Buffer.from(binding, 'utf8'))
      decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES))
      const plain = Buffer.concat([
        decipher.update(bytes.subarray(NONCE_BYTES, bytes.length - TAG_BYTES)),
        decipher.final(),
      ])
      return unpackPosition(plain)
    } catch {
      return null
    }
  }
}

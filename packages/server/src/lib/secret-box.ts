import {
  createCipheriv,
  createDecipheriv,
  createSecretKey,
  hkdfSync,
  type KeyObject,
  randomBytes,
} from 'node:crypto'

const VERSION = 'v1'

/**
 * Authenticated encryption (AES-256-GCM) of small values kept at rest that the service must read
 * back: stored idempotent responses (they may carry a one-time secret) and webhook signing
 * secrets. The key is derived from the service secret, so every instance can open what another
 * sealed; `context` binds a sealed value to its purpose (and row), so one cannot be swapped for
 * another.
 */
export class SecretBox {
  // A key object, made once: from raw bytes, every cipher would import the key anew.
  readonly #key: KeyObject

  constructor(secret: Buffer) {
    this.#key = createSecretKey(
      Buffer.from(hkdfSync('sha256', secret, 'workgraph', 'secret-box v1', 32)),
    )
  }

  /** `v1.<iv>.<ciphertext>.<tag>`, base64url parts. */
  seal(plaintext: string, context: string): string {
    const iv = randomBytes(12)
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv)
    cipher.setAAD(Buffer.from(context))
    const sealed = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()])
    return [VERSION, iv, sealed, cipher.getAuthTag()]
      .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
      .join('.')
  }

  /** The plaintext of a sealed value; throws if it was altered or sealed for another context. */
  open(sealed: string, context: string): string {
    const [version, iv, data, tag] = sealed.split('.')
    if (version !== VERSION || !iv || data === undefined || !tag)
      throw new Error('not a sealed value')
    const decipher = createDecipheriv('aes-256-gcm', this.#key, Buffer.from(iv, 'base64url'))
    decipher.setAAD(Buffer.from(context))
    decipher.setAuthTag(Buffer.from(tag, 'base64url'))
    return Buffer.concat([
      decipher.update(Buffer.from(data, 'base64url')),
      decipher.final(),
    ]).toString('utf8')
  }
}

import { createHash } from 'node:crypto'
import Fastify from 'fastify'

/** Scalar's browser bundle, with the ETag it is revalidated by. */
export interface ScalarBundle {
  readonly body: Buffer
  readonly etag: string
}

let loading: Promise<ScalarBundle> | undefined

/**
 * The API reference's renderer: Scalar's standalone bundle, as shipped inside
 * @scalar/fastify-api-reference (nothing is fetched from a CDN). The package holds the bundle as
 * one large module, so it is loaded at the first visit of the reference rather than at start:
 * a server nobody reads the reference of never pays its start-up time or memory.
 */
export function scalarBundle(): Promise<ScalarBundle> {
  loading ??= loadBundle().catch((error: unknown) => {
    loading = undefined
    throw error
  })
  return loading
}

// The package serves the bundle only through its plugin's route, so it is asked there, once, on
// an app of its own that never listens.
async function loadBundle(): Promise<ScalarBundle> {
  const { default: apiReference } = await import('@scalar/fastify-api-reference')
  const app = Fastify({ logger: false })
  try {
    await app.register(apiReference, { routePrefix: '/reference', configuration: { url: '/' } })
    const reply = await app.inject({ method: 'GET', url: '/reference/js/scalar.js' })
    if (reply.statusCode !== 200) throw new Error(`Scalar's bundle answered ${reply.statusCode}`)
    const body = reply.rawPayload
    return { body, etag: `"${createHash('sha256').update(body).digest('base64url')}"` }
  } finally {
    await app.close()
  }
}

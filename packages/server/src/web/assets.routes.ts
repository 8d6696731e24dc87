import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'

/** A static file of the dashboard, read once at start, with the hash that versions its URL. */
interface Asset {
  readonly body: Buffer
  readonly type: string
  readonly etag: string
  /** `/assets/app.css?v=…`: a new hash is a new URL, so the file may be cached for a year. */
  readonly url: string
}

function load(name: string, type: string): Asset {
  const body = readFileSync(join(import.meta.dirname, 'assets', name))
  const hash = createHash('sha256').update(body).digest('base64url').slice(0, 16)
  return { body, type, etag: `"${hash}"`, url: `/assets/${name}?v=${hash}` }
}

/** The stylesheet and the script; the layout links them by their versioned URLs. */
export const ASSETS = {
  css: load('app.css', 'text/css; charset=utf-8'),
  js: load('app.js', 'text/javascript; charset=utf-8'),
} as const

/** GET /assets/app.css and /assets/app.js: immutable under their hash, revalidated by ETag. */
export function assetRoutes() {
  return async (app: FastifyInstance) => {
    for (const asset of Object.values(ASSETS)) {
      const path = asset.url.split('?')[0] as string
      app.get(
        path,
        { config: { public: true }, schema: { hide: true } },
        async (request, reply) => {
          reply.headers({
            'content-type': asset.type,
            'cache-control': 'public, max-age=31536000, immutable',
            etag: asset.etag,
            'x-content-type-options': 'nosniff',
          })
          if (request.headers['if-none-match'] === asset.etag) return reply.code(304).send()
          return reply.send(asset.body)
        },
      )
    }
  }
}

import type fc from 'fast-check'
import type { RouteEntry } from '../route-list.ts'

// The types the generators of malformed requests share. Every request carries at least one fault
// that the app must refuse (so a write route that accepts one has changed something it must not),
// on top of otherwise plausible values: real ids, real tokens, schema-shaped bodies.

/** fast-check's generator handle (`fc.gen()`), from which every choice is drawn in turn. */
export type Gen = fc.GeneratorValue

/** A JSON Schema of the OpenAPI document, read loosely. */
// biome-ignore lint/suspicious/noExplicitAny: JSON Schemas from the OpenAPI document, read loosely
export type Schema = any

/** A request for `inject`, and which kind of route it is for (that decides what its errors look like). */
export interface FuzzRequest {
  method: string
  url: string
  headers: Record<string, string>
  payload?: string | Buffer
  target: 'api' | 'provider' | 'pages'
  fault: string
}

/** What the generators draw on: the routes, their schemas, and real ids and secrets. */
export interface FuzzContext {
  routes: RouteEntry[]
  // biome-ignore lint/suspicious/noExplicitAny: the OpenAPI document
  openapi: any
  token: string
  /** Real ids by prefix (`tsk`, `whk`, `key`…). */
  ids: Record<string, string[]>
  oauth: { clientId: string; redirectUri: string; challenge: string }
  /** Paths the OAuth provider answers itself. */
  providerPaths: Set<string>
}

import { chance, int, pick } from './draws.ts'
import type { FuzzContext, Gen, Schema } from './fuzz-request.ts'

// The plausible parts of a malformed request, so that its one fault is what gets it refused
// rather than a missing field or an id that matches nothing.

const KIND_BY_COLLECTION: Record<string, string> = {
  tasks: 'tsk',
  canvases: 'cnv',
  webhooks: 'whk',
  people: 'usr',
  projects: 'prj',
  tokens: 'key',
  'api-keys': 'key',
  'oauth-grants': 'grt',
}

/** An id for a path parameter: mostly a real one of the route's kind, else another or a wrong one. */
export function idFor(g: Gen, ctx: FuzzContext, url: string, name: string): string {
  const kind = name === 'delivery_id' ? 'dlv' : KIND_BY_COLLECTION[url.split('/')[2] ?? '']
  const all = Object.values(ctx.ids).flat()
  const real = kind ? (ctx.ids[kind] ?? []) : all
  const choice = int(g, 0, 9)
  if (choice < 5 && real.length > 0) return pick(g, real)
  if (choice < 7 && all.length > 0) return pick(g, all)
  return pick(g, [
    `${kind ?? 'tsk'}_00000000000000000000000000`,
    'xyz',
    'TSK_00000000000000000000000000',
    '..',
    '%2e%2e',
    '%2F',
    '😀',
    'a'.repeat(600),
    ' ',
  ])
}

/** A plausible value for a schema: real ids for `*_id` fields, the first enum value, and so on. */
export function sample(g: Gen, ctx: FuzzContext, schema: Schema, name = ''): unknown {
  if (!schema || typeof schema !== 'object') return 'x'
  if (schema.anyOf) {
    const options = schema.anyOf.filter((s: Schema) => s.type !== 'null')
    return options.length > 0 ? sample(g, ctx, pick(g, options), name) : null
  }
  if (schema.const !== undefined) return schema.const
  if (schema.enum) return pick(g, schema.enum)
  switch (schema.type) {
    case 'object': {
      const out: Record<string, unknown> = {}
      const required = new Set<string>(schema.required ?? [])
      for (const [key, child] of Object.entries(schema.properties ?? {})) {
        if (required.has(key) || chance(g, 40)) out[key] = sample(g, ctx, child, key)
      }
      return out
    }
    case 'array':
      return chance(g, 50) ? [] : [sample(g, ctx, schema.items, name)]
    case 'integer':
    case 'number':
      return schema.minimum ?? 1
    case 'boolean':
      return true
    case 'string': {
      if (schema.format === 'date') return '2026-12-01'
      if (schema.format === 'date-time') return '2026-12-01T10:00:00Z'
      if (schema.format === 'uri') return 'https://hooks.example.test/in'
      if (schema.format === 'email') return 'someone@example.test'
      if (name.endsWith('_id') || name === 'links') return pick(g, Object.values(ctx.ids).flat())
      return 'x'.repeat(Math.max(1, schema.minLength ?? 1))
    }
  }
  return 'x'
}

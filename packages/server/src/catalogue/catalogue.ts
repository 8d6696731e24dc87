import type { KindDescriptor, KindParts, KindWith } from './kind.ts'
import { KINDS, OTHER_ID_PREFIXES } from './kinds.ts'

/*
 * The registry of resource kinds that consumers iterate over. It starts with the built-in kinds'
 * data; each kind's folder under `kinds/` adds its parts when the app is assembled, and a test may
 * define a kind of its own the same way, before it builds an app.
 */

const byName = new Map<string, KindDescriptor>()
const byPrefix = new Map<string, KindDescriptor>()
const reserved = new Set<string>(Object.values(OTHER_ID_PREFIXES))

/**
 * Adds a kind, or parts to a kind already defined (the same name with the same data). A new kind
 * whose name or prefix is taken, or a part given twice, throws: two kinds never share ids.
 */
export function defineKind(descriptor: KindDescriptor): void {
  const known = byName.get(descriptor.name)
  if (known) {
    for (const [key, value] of Object.entries(descriptor)) {
      const had = (known as unknown as Record<string, unknown>)[key]
      if (had !== undefined && had !== value)
        throw new Error(`kind ${descriptor.name}: ${key} is defined twice`)
    }
    const merged = { ...known, ...descriptor }
    byName.set(merged.name, merged)
    byPrefix.set(merged.prefix, merged)
    return
  }
  if (byPrefix.has(descriptor.prefix) || reserved.has(descriptor.prefix))
    throw new Error(`kind ${descriptor.name}: the prefix ${descriptor.prefix} is taken`)
  byName.set(descriptor.name, descriptor)
  byPrefix.set(descriptor.prefix, descriptor)
}

/** The kind of this name, if one is defined. */
export function kindNamed(name: string): KindDescriptor | undefined {
  return byName.get(name)
}

/**
 * The kind an id's prefix names, if any. Only the prefix is read: a malformed id of a known
 * prefix finds no row later, which callers answer like any unknown id.
 */
export function kindOfId(id: string): KindDescriptor | undefined {
  const end = id.indexOf('_')
  return end > 0 ? byPrefix.get(id.slice(0, end)) : undefined
}

/** Every kind, in the order they were defined (built-in kinds first). */
export function allKinds(): readonly KindDescriptor[] {
  return [...byName.values()]
}

/** The kinds that have a part, in definition order. */
export function kindsWith<P extends keyof KindParts>(part: P): KindWith<P>[] {
  return allKinds().filter((kind) => kind[part] !== undefined) as KindWith<P>[]
}

for (const info of Object.values(KINDS)) defineKind(info)

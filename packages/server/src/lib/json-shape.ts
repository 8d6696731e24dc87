import { pointerOf, type WalkedPlace } from './json-pointer.ts'

/** The bounds of a JSON body's shape (docs/errors.md): far past what any body of the API needs. */
export const JSON_SHAPE_LIMITS = {
  /** Levels of arrays and objects. */
  depth: 64,
  /** Members of one object. */
  members: 1000,
  /** Items of one array. */
  items: 1000,
} as const

/** Where a value breaks a bound of JSON_SHAPE_LIMITS, as a JSON Pointer and a message. */
export interface ShapeBreach {
  path: string
  message: string
}

/**
 * The first place where a parsed JSON value breaks a bound of its shape, or null. Validators
 * and serializers walk a body recursively and report every wrong member: this walk comes first,
 * so that none of them meets a body nested past the call stack, or one of 70,000 unknown fields
 * whose refusal alone would hold the event loop many times longer than parsing it
 * (bench/HISTORY.md, "Reliability"). It is iterative and linear in the body's size.
 */
export function shapeBreach(
  value: unknown,
  limits: { depth: number; members: number; items: number } = JSON_SHAPE_LIMITS,
): ShapeBreach | null {
  if (value === null || typeof value !== 'object') return null
  // Each entry knows its parent and its key there; a path is only spelled out for a breach.
  const stack: Place[] = [{ value, depth: 0, parent: null, key: '' }]
  while (stack.length > 0) {
    const place = stack.pop() as Place
    const { value: current, depth } = place
    if (depth >= limits.depth)
      return { path: '', message: `nests more than ${limits.depth} levels deep` }
    if (Array.isArray(current)) {
      if (current.length > limits.items)
        return { path: pointerOf(place), message: `has more than ${limits.items} items` }
      for (let i = 0; i < current.length; i++) {
        const child: unknown = current[i]
        if (child !== null && typeof child === 'object')
          stack.push({ value: child, depth: depth + 1, parent: place, key: String(i) })
      }
      continue
    }
    const keys = Object.keys(current)
    if (keys.length > limits.members)
      return { path: pointerOf(place), message: `has more than ${limits.members} members` }
    for (const key of keys) {
      const child: unknown = (current as Record<string, unknown>)[key]
      if (child !== null && typeof child === 'object')
        stack.push({ value: child, depth: depth + 1, parent: place, key })
    }
  }
  return null
}

interface Place extends WalkedPlace {
  value: object
  depth: number
  parent: Place | null
}

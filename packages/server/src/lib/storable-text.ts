import { pointerOf } from './json-pointer.ts'

/**
 * Text the database can hold: PostgreSQL refuses U+0000 in text and JSON, and a lone UTF-16
 * surrogate (which JSON's `\ud800` escapes can produce) has no UTF-8 encoding at all, so it would
 * either fail a statement or be stored silently replaced by U+FFFD.
 */

/** Why a string cannot be stored as text, as a validation message; null when it can. */
export function textFault(value: string): string | null {
  if (value.includes('\u0000')) return 'must not contain a NUL character (U+0000)'
  if (!value.isWellFormed())
    return 'must not contain an unpaired surrogate (it is not Unicode text)'
  return null
}

/** True when the string can be stored and compared as text. */
export function isStorableText(value: string): boolean {
  return textFault(value) === null
}

/** One string of a value that cannot be stored, located by a JSON Pointer. */
export interface TextFault {
  path: string
  message: string
}

// A node of the walk: its parent and key rebuild the pointer only when something is found, so
// that a deeply nested value costs no path strings.
interface Node {
  value: unknown
  parent: Node | null
  key: string
}

/**
 * Every string in a parsed value, object keys included, that cannot be stored (at most `limit`).
 * The walk is iterative: a 1 MiB body can nest far deeper than the call stack.
 */
export function unstorableText(value: unknown, limit = 20): TextFault[] {
  const faults: TextFault[] = []
  const stack: Node[] = [{ value, parent: null, key: '' }]
  while (stack.length > 0 && faults.length < limit) {
    const node = stack.pop() as Node
    const keyFault = node.parent && !Array.isArray(node.parent.value) ? textFault(node.key) : null
    const current = node.value
    if (keyFault)
      faults.push({ path: pointerOf(node), message: `is a field name that ${keyFault}` })
    else if (typeof current === 'string') {
      const fault = textFault(current)
      if (fault) faults.push({ path: pointerOf(node), message: fault })
    } else if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--)
        if (mayHoldText(current[i])) stack.push({ value: current[i], parent: node, key: String(i) })
    } else if (current !== null && typeof current === 'object') {
      const keys = Object.keys(current)
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i] as string
        const child = (current as Record<string, unknown>)[key]
        if (mayHoldText(child) || !isStorableText(key))
          stack.push({ value: child, parent: node, key })
      }
    }
  }
  return faults
}

// Numbers, booleans and null need no visit of their own.
function mayHoldText(value: unknown): boolean {
  return typeof value === 'string' || (typeof value === 'object' && value !== null)
}

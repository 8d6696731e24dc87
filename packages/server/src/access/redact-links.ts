import { idKind } from '../lib/ids.ts'

/*
 * An event's object carries every link it had when it happened; each endpoint's owner sees only
 * the links it may open now. Links are the `…_id` fields, `…_ids` arrays and `links` arrays of
 * the object and of the records nested in it.
 */

function isLinkField(key: string): boolean {
  return key !== 'id' && key !== 'workspace_id' && key.endsWith('_id')
}

function isLinkList(key: string): boolean {
  return key === 'links' || key.endsWith('_ids')
}

/** Every id an object links to (what `redactLinks` will ask about). */
export function linkedIds(value: unknown, into: Set<string> = new Set()): Set<string> {
  if (Array.isArray(value)) for (const item of value) linkedIds(item, into)
  else if (value !== null && typeof value === 'object') {
    for (const [key, field] of Object.entries(value)) {
      if (isLinkField(key) && typeof field === 'string' && idKind(field)) into.add(field)
      else if (isLinkList(key) && Array.isArray(field)) {
        for (const item of field) if (typeof item === 'string' && idKind(item)) into.add(item)
      } else if (field !== null && typeof field === 'object') linkedIds(field, into)
    }
  }
  return into
}

/** A copy of the object with hidden link fields nulled and hidden list entries left out. */
export function redactLinks<T>(value: T, visible: ReadonlySet<string>): T {
  if (Array.isArray(value)) return value.map((item) => redactLinks(item, visible)) as T
  if (value === null || typeof value !== 'object') return value
  const copy: Record<string, unknown> = {}
  for (const [key, field] of Object.entries(value)) {
    if (isLinkField(key) && typeof field === 'string' && idKind(field))
      copy[key] = visible.has(field) ? field : null
    else if (isLinkList(key) && Array.isArray(field))
      copy[key] = field.filter(
        (item) => typeof item !== 'string' || !idKind(item) || visible.has(item),
      )
    else copy[key] = redactLinks(field, visible)
  }
  return copy as T
}

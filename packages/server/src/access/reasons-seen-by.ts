import type { Db } from '../db/database.ts'
import { ACCESS_REASON_KINDS, type AccessReason } from './access-reason.ts'
import type { Caller } from './caller.ts'
import { readsKindOfId } from './scopes.ts'
import { visibleAmong } from './visibility.ts'

/**
 * Access reasons as the asking credential may see them (docs/permissions.md, "Why a resource is
 * open"): a `via_id` names only what the asker's credential opens, through its fence and of a type
 * it reads. About the asker's own access, a reason through something else keeps its kind and
 * loses its `via_id` (the reason is the asker's own; only the name is out of reach). About another
 * person, such a reason is left out whole: that the person reaches the resource through something
 * closed to the asker is itself what the asker may not learn.
 */
export async function reasonsSeenBy(
  db: Db,
  asker: Caller,
  reasons: readonly AccessReason[],
  aboutOther: boolean,
): Promise<AccessReason[]> {
  const named = reasons.flatMap((reason) => (reason.via_id === undefined ? [] : [reason.via_id]))
  const readable = named.filter((id) => readsKindOfId(asker.credential.scopes, id))
  const open = await visibleAmong(db, asker.visibility, readable)
  const seen: AccessReason[] = []
  for (const reason of reasons) {
    if (reason.via_id === undefined || open.has(reason.via_id)) seen.push(reason)
    else if (!aboutOther && !seen.some((s) => s.kind === reason.kind && s.via_id === undefined))
      seen.push({ kind: reason.kind })
  }
  // In the documented order: by kind, then by via_id, an unnamed one first.
  const rank = (reason: AccessReason) => ACCESS_REASON_KINDS.indexOf(reason.kind)
  return seen.sort((a, b) => rank(a) - rank(b) || (a.via_id ?? '').localeCompare(b.via_id ?? ''))
}

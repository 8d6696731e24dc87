import { earlierEnd, type Fence, narrowFence } from '../access/fence.ts'
import { openableIds } from '../access/visibility.ts'
import { idKind } from '../lib/ids.ts'
import { ruleBroken } from '../writes/business-rule.ts'
import type { WriteContext } from '../writes/write-context.ts'

/** The longest a credential may be asked to live: a year (docs/api.md, "API keys"). */
export const LONGEST_LIFETIME_MS = 365 * 24 * 60 * 60 * 1000

/** What a new credential is fenced to, and when it ends. */
export interface CredentialLimits {
  readonly fence: Fence
  /** Null: it does not end on its own. */
  readonly validUntil: Date | null
}

/**
 * The fence and end of a credential the caller is making (docs/permissions.md, "Fenced
 * credentials"). Each requested project must be one the caller's credential opens now: an id it
 * cannot open is refused exactly like an unknown one, so the answer reveals nothing. Nothing
 * asked: the caller's own fence. The end is the one asked for (in the future, at most a year
 * ahead), cut to the caller's own end: a credential never outlives the one that made it.
 */
export async function limitsOfNewCredential(
  w: WriteContext,
  input: { project_ids?: readonly string[] | undefined; expires_at?: string | undefined },
): Promise<CredentialLimits> {
  const { credential, visibility } = w.caller
  let requested: Fence = null
  if (input.project_ids !== undefined) {
    const ids = input.project_ids
    const projects = ids.filter((id) => idKind(id) === 'project')
    const open = await openableIds(w.trx, visibility, projects)
    const closed = ids.findIndex((id) => !open.has(id))
    if (closed >= 0)
      throw ruleBroken(`/project_ids/${closed}`, 'names no project this token can open')
    requested = ids
  }
  let asked: Date | null = null
  if (input.expires_at !== undefined) {
    asked = new Date(input.expires_at)
    if (asked.getTime() <= w.now.getTime()) throw ruleBroken('/expires_at', 'must be in the future')
    if (asked.getTime() - w.now.getTime() > LONGEST_LIFETIME_MS)
      throw ruleBroken('/expires_at', 'must be at most a year ahead')
  }
  return {
    fence: narrowFence(credential.fence, requested),
    validUntil: earlierEnd(asked, credential.validUntil),
  }
}

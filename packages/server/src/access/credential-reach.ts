import { type RawBuilder, type SqlBool, sql } from 'kysely'
import { SCOPE_ALIASES, SCOPES, type Scope } from '../catalogue/scopes.ts'
import type { Credential } from './authenticate-token.ts'
import { type Fence, narrowFence } from './fence.ts'
import { expandScopes } from './scopes.ts'

/*
 * The one rule for whatever acts later on a person's behalf (docs/permissions.md, "What a
 * credential reaches"): a key made with a key, a workspace token, a webhook endpoint, an OAuth
 * grant's tokens, a long poll. It acts within what the credential that made it held (scopes,
 * fence, end) and what its own credential holds when it acts; and it is listed, read, changed or
 * replayed only through a credential that covers what it reaches. A narrower credential of the
 * same person therefore never sees or steers a wider one's things: it could not have made them.
 *
 * Ends are the other half of the rule and live in credential-liveness.ts (a credential ends with
 * everything it was made with) and credential-limits.ts (a new one ends no later than its maker).
 * An end is not part of coverage: it limits when something acts, not what it reaches.
 */

/** What a credential, or something bound to one, reaches: its scopes and its fence. */
export interface Reach {
  readonly scopes: ReadonlySet<Scope>
  readonly fence: Fence
}

/** What a credential reaches. */
export function reachOf(credential: Credential): Reach {
  return { scopes: credential.scopes, fence: credential.fence }
}

/** What both reach: the scopes both hold, within both fences. */
export function reachOfBoth(a: Reach, b: Reach): Reach {
  return {
    scopes: new Set([...a.scopes].filter((scope) => b.scopes.has(scope))),
    fence: narrowFence(a.fence, b.fence),
  }
}

/**
 * The scope names, canonical or alias, a credential holds in full: what a stored list of names
 * (a key's `scopes`, which may hold aliases) must stay within to be covered.
 */
function namesHeld(scopes: ReadonlySet<Scope>): string[] {
  const aliases = Object.keys(SCOPE_ALIASES).filter((alias) =>
    [...expandScopes([alias])].every((scope) => scopes.has(scope)),
  )
  return [...scopes, ...aliases].sort()
}

/** Whether a fence `wider` opens at least every project the fence `narrower` does. */
function fenceCovers(wider: Fence, narrower: Fence): boolean {
  if (wider === null) return true
  if (narrower === null) return false
  const allowed = new Set(wider)
  return narrower.every((id) => allowed.has(id))
}

/**
 * Whether the acting credential covers what a bound thing reaches: it holds every scope the
 * thing was given and its fence is no narrower. A dashboard session is its person acting in the
 * product itself, and covers everything that person owns.
 */
export function covers(
  credential: Credential,
  bound: { scopes: readonly string[]; fence: Fence },
): boolean {
  if (credential.kind === 'web_session') return true
  const held = new Set(namesHeld(credential.scopes))
  const known = bound.scopes.filter(
    (name) => Object.hasOwn(SCOPES, name) || Object.hasOwn(SCOPE_ALIASES, name),
  )
  return known.every((name) => held.has(name)) && fenceCovers(credential.fence, bound.fence)
}

/**
 * SQL form of `covers` for lists: the row's scope names (a text array, or an expression of one)
 * and its fence (null: unfenced) are covered by the credential. Names that are no scope of this
 * API (an OAuth grant's `openid`) are not compared.
 */
export function coveredBy(
  credential: Credential,
  scopes: RawBuilder<unknown> | string,
  fence: string,
): RawBuilder<SqlBool> {
  if (credential.kind === 'web_session') return sql<SqlBool>`true`
  const names = typeof scopes === 'string' ? sql.ref(scopes) : scopes
  const known = [...Object.keys(SCOPES), ...Object.keys(SCOPE_ALIASES)].sort()
  const heldNames = sql`${sql.val(namesHeld(credential.scopes))}::text[]`
  const scopesCovered = sql<SqlBool>`not exists (select 1 from unnest(${names}) as bound(name)
    where bound.name = any(${sql.val(known)}::text[]) and not bound.name = any(${heldNames}))`
  if (credential.fence === null) return scopesCovered
  const fenceColumn = sql.ref(fence)
  return sql<SqlBool>`(${scopesCovered} and ${fenceColumn} is not null and ${fenceColumn} <@ ${sql.val([...credential.fence])}::text[])`
}

/**
 * The lineage a credential made by `credential` ends with (`tokens.made_with`): the maker itself
 * when it is a key or workspace token, and everything the maker ends with. A dashboard session is
 * no such credential: what a person makes on the dashboard is theirs, not the session's.
 */
export function lineageOf(credential: Credential): string[] {
  const own = credential.kind === 'api_key' || credential.kind === 'workspace_token'
  return [...new Set([...credential.madeWith, ...(own ? [credential.id] : [])])]
}

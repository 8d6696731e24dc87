import { allKinds, kindNamed, kindOfId } from '../catalogue/catalogue.ts'
import { SCOPE_ALIASES, SCOPES, type Scope } from '../catalogue/scopes.ts'

// A scope that carries others with it.
const IMPLIED: Readonly<Partial<Record<Scope, readonly Scope[]>>> = {
  'canvas:write': ['canvas:create'],
}

/** True for a canonical scope name or an alias. */
export function isKnownScope(name: string): boolean {
  return Object.hasOwn(SCOPES, name) || Object.hasOwn(SCOPE_ALIASES, name)
}

/** The canonical scopes a list of granted names (aliases included) amounts to. */
export function expandScopes(names: readonly string[]): ReadonlySet<Scope> {
  const result = new Set<Scope>()
  const add = (scope: Scope) => {
    result.add(scope)
    for (const implied of IMPLIED[scope] ?? []) result.add(implied)
  }
  for (const name of names) {
    if (Object.hasOwn(SCOPES, name)) add(name as Scope)
    for (const scope of SCOPE_ALIASES[name] ?? []) add(scope)
  }
  return result
}

/** The required scopes that a grant lacks (empty when it has them all). */
export function missingScopes(granted: ReadonlySet<Scope>, required: readonly Scope[]): Scope[] {
  return required.filter((scope) => !granted.has(scope))
}

/**
 * The scope names of a credential about to be issued that its issuer does not hold, sorted; empty
 * when it may be issued. A name counts as held only when everything it stands for is (an alias,
 * or a scope that implies others). Every path that creates, rotates or re-issues a credential
 * applies this: no one obtains a secret with more than the token they act with.
 */
export function scopesBeyond(granted: ReadonlySet<Scope>, names: readonly string[]): string[] {
  return [...new Set(names)]
    .filter((name) => missingScopes(granted, [...expandScopes([name])]).length > 0)
    .sort()
}

/** The scope that reads a kind of resource; throws for a name that is no kind. */
export function readScopeOf(kind: string): Scope {
  const scope = kindNamed(kind)?.readScope
  if (scope === undefined) throw new Error(`no kind ${kind}`)
  return scope
}

/** Whether these scopes read the kind of resource the id names (false for an id of no kind). */
export function readsKindOfId(granted: ReadonlySet<Scope>, id: string): boolean {
  const scope = kindOfId(id)?.readScope
  return scope !== undefined && granted.has(scope)
}

/**
 * The kinds a token may read that stand on their own (search hits, links, lists name only these),
 * in catalogue order.
 */
export function readableKinds(granted: ReadonlySet<Scope>): string[] {
  return allKinds()
    .filter((kind) => kind.standalone && granted.has(kind.readScope))
    .map((kind) => kind.name)
}

/** Every kind's read scope, once each: what a route that opens any resource may need. */
export function readScopes(): Scope[] {
  return [...new Set(allKinds().map((kind) => kind.readScope))]
}

/**
 * What a route on any resource (`/v1/resources/:id…`) needs: the read scope of the id's kind, for
 * the kinds given (every kind by default). Call it when the routes are built, after every kind
 * is defined.
 */
export function readScopesByKind(kinds = allKinds()): ScopesByIdKind {
  return { byIdKind: Object.fromEntries(kinds.map((kind) => [kind.name, [kind.readScope]])) }
}

/** Scopes that depend on the kind of the `:id` path parameter. */
export interface ScopesByIdKind {
  readonly byIdKind: Readonly<Record<string, readonly Scope[]>>
}

/** Any one of these scopes admits the request; the handler checks finer (search, per type). */
export interface ScopesAnyOf {
  readonly anyOf: readonly Scope[]
}

/** How a route declares what it needs. */
export type ScopeRequirement = readonly Scope[] | ScopesByIdKind | ScopesAnyOf

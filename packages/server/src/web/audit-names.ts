import type { Static } from 'typebox'
import type { AppDeps } from '../app-deps.ts'
import type { AuditRecord } from '../audit/audit.schemas.ts'
import { listActors, ownerNames } from '../tokens/token-owners.queries.ts'
import { listTokens } from '../tokens/tokens.queries.ts'
import { type Neighbour, neighbourNames } from './neighbour-names.ts'
import type { WebContext } from './web-context.ts'

/** An audit entry as the API presents it to this reader (redaction already applied). */
export type AuditEntry = Static<typeof AuditRecord>

/** The filters of the page, as typed in its GET form. */
export type AuditFilterValues = Partial<
  Record<'token_id' | 'actor_id' | 'action' | 'resource_id' | 'since' | 'until', string>
>

// The filters' choices: enough for a workspace's people and credentials; an id beyond them still
// filters through the address (each entry's links carry it).
const CHOICES_LIMIT = 500

/** What the audit page names instead of showing ids, and the choices of its filters. */
export interface AuditNames {
  /** People and integrations by id (owners and admins, who alone open the page, see them all). */
  readonly actors: ReadonlyMap<string, string>
  /** Tokens by id: the name their maker gave them. */
  readonly tokens: ReadonlyMap<string, string>
  /** The resources of the entries that the reader may open now, through the API's visibility. */
  readonly resources: ReadonlyMap<string, Neighbour>
  readonly actorChoices: readonly { id: string; name: string; kind: string }[]
  readonly tokenChoices: readonly { id: string; name: string; kind: string }[]
}

/**
 * Names for the entries on the page and the filters. Actors and tokens are read as the
 * workspace tokens page reads them (ownerNames, listTokens: an admin's view of every credential);
 * resources only through neighbourNames, so a resource the reader may not open has no name here.
 */
export async function auditNames(
  deps: AppDeps,
  web: WebContext,
  entries: readonly AuditEntry[],
  filters: AuditFilterValues,
): Promise<AuditNames> {
  const workspaceId = web.caller.principal.workspaceId
  const now = deps.clock.now()
  const actorIds = [...entries.map((entry) => entry.actor_id), filters.actor_id ?? '']
  const shownResources = entries.map((entry) => (entry.redacted ? null : entry.resource_id))
  // Ids among the diffs' values (a task's project, its assignee): named where the reader may see.
  const diffIds = entries.flatMap((entry) =>
    Object.values(entry.diff ?? {}).flatMap(({ from, to }) =>
      [from, to].filter((value): value is string => typeof value === 'string'),
    ),
  )
  const [actors, actorChoices, tokenRows, resources] = await Promise.all([
    ownerNames(deps.db, workspaceId, actorIds.filter(Boolean)),
    listActors(deps.db, workspaceId, CHOICES_LIMIT),
    listTokens(deps.db, web.caller, {}, null, CHOICES_LIMIT, now),
    neighbourNames(deps, web.caller, [...shownResources, ...diffIds, filters.resource_id]),
  ])
  const tokenChoices = tokenRows
    .slice(0, CHOICES_LIMIT)
    .map((token) => ({ id: token.id, name: token.name, kind: token.kind }))
  const tokens = new Map(tokenChoices.map((token) => [token.id, token.name]))
  return { actors, tokens, resources, actorChoices, tokenChoices }
}

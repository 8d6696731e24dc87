import type { ServerEvent, ServerEventBus } from '@modelcontextprotocol/server'
import type { Caller } from '../access/caller.ts'
import { openableIds } from '../access/visibility.ts'
import { showChangedPeople } from '../activity/changed-people.ts'
import type { ChangeRow } from '../graph/changes/changes.queries.ts'
import { CHANGE_KINDS } from '../graph/changes/changes.schemas.ts'
import type { FeedFollower, FollowedBatch } from '../graph/changes/feed-followers.ts'
import { projectUri } from './mcp-resources.ts'
import type { McpSession } from './mcp-session.ts'
import { describeChanges } from './tools/changes.tool.ts'

/** The subscription to every change the caller may see (docs/mcp.md, "Following changes"). */
export const CHANGES_URI = 'workgraph://changes'

/**
 * Where a resource update carries the changes and the cursor after them: its `_meta`, the one
 * place a notification's params hold more than the protocol names (clients drop other fields).
 */
export const CHANGES_META = 'workgraph/changes'
/** The feed cursor after the changes of an update, in its `_meta`. */
export const CURSOR_META = 'workgraph/next_cursor'
/** Why the server ended a stream, in the `_meta` of its last update. */
export const ENDED_META = 'workgraph/ended'

// One change as an update carries it: what the `changes` tool shows of it.
type Line = Omit<Awaited<ReturnType<typeof describeChanges>>[number], 'row'>

// Changes one notification carries at most; more follow in the next one.
const CHANGES_PER_NOTIFICATION = 20
/**
 * The change-event bus of one `subscriptions/listen` stream (protocol 2026-07-28): its caller's
 * change feed, from the moment the stream opens, as `notifications/resources/updated` of
 * `workgraph://changes` and of the project each change is in. Every notification carries the
 * changes themselves (one line's worth each: event, title, actor, time, URL) and the feed cursor
 * after them, so a client that reconnects resumes with the `changes` tool.
 *
 * The bus follows its workspace through the app's one reader of it (graph/changes/
 * feed-followers.ts): a commit is read once for every stream of the process, and each bus keeps
 * what its caller may open, as the caller is at that moment: it authenticates again, checks the
 * changes' resources and the projects named by their URIs. The bus is the permission boundary:
 * what a caller's stream hears is only what that caller may open. A credential that ends ends
 * the stream; so does a client that leaves what it was sent unread for longer than
 * `MCP_STREAM_UNREAD_TIMEOUT_MS`, told why in the `_meta` of a last update.
 */
export class CallerChangeBus implements ServerEventBus, FeedFollower {
  readonly workspaceId: string
  readonly #session: McpSession
  readonly #listeners = new Set<(event: ServerEvent) => void>()
  readonly #onEnd: () => void
  #started = false
  #ended = false
  // Changes at or before this position are not this stream's: it opened after them.
  #after = Number.POSITIVE_INFINITY
  #leave: (() => void) | undefined
  #congestedSince: number | null = null

  /** `onEnd` is called once when the feed can no longer be followed (credential ended, failure). */
  constructor(session: McpSession, onEnd: () => void) {
    this.#session = session
    this.workspaceId = session.caller.principal.workspaceId
    this.#onEnd = onEnd
  }

  /** Delivers an event to this stream's listener (the SDK's router). */
  publish(event: ServerEvent): void {
    for (const listener of this.#listeners) listener(event)
  }

  /** The SDK's router subscribes once the stream is acknowledged: following starts then. */
  subscribe(listener: (event: ServerEvent) => void): () => void {
    this.#listeners.add(listener)
    if (!this.#started) {
      this.#started = true
      void this.#join()
    }
    return () => {
      this.#listeners.delete(listener)
      if (this.#listeners.size === 0) this.stop()
    }
  }

  /** Stops following: the stream ended. */
  stop(): void {
    this.#ended = true
    this.#leave?.()
  }

  /** The feed can no longer be followed for this stream. */
  end(): void {
    if (this.#ended) return
    this.stop()
    this.#onEnd()
  }

  async receive(batch: FollowedBatch): Promise<void> {
    if (this.#ended) return
    const rows = batch.rows.filter((row) => row.position > this.#after)
    if (rows.length === 0) return
    this.#after = batch.position
    if (this.#clientStopsReading()) return this.#endUnread(batch.position)
    // Each batch is read as a request made now would be: access may have changed, or ended.
    const caller = await this.#caller()
    if (!caller) return
    const shown = await showChangedPeople(
      this.#session.deps.db,
      caller,
      await visibleTo(this.#session, caller, rows),
    )
    for (let i = 0; i < shown.length; i += CHANGES_PER_NOTIFICATION) {
      const part = shown.slice(i, i + CHANGES_PER_NOTIFICATION)
      const last = i + CHANGES_PER_NOTIFICATION >= shown.length
      const cursor = last ? batch.position : (part.at(-1)?.position ?? batch.position)
      await this.#announce(caller, part, cursor)
    }
  }

  async idle(): Promise<void> {
    if (this.#ended) return
    if (this.#clientStopsReading()) return this.#endUnread(this.#after)
    await this.#caller()
  }

  async #join(): Promise<void> {
    const { feed, log } = this.#session
    try {
      const joined = await feed.followers.join(this)
      this.#after = joined.position
      this.#leave = joined.leave
      if (this.#ended) joined.leave()
    } catch (error) {
      log.warn({ err: error }, 'change subscription could not start')
      this.end()
    }
  }

  // The caller as a request made now would be; null (and the stream ended) once it has ended.
  async #caller(): Promise<Caller | null> {
    try {
      return await this.#session.asker.reauthenticate()
    } catch {
      // A credential that ended is the 401 a request would get: the stream ends gracefully.
      this.end()
      return null
    }
  }

  async #announce(caller: Caller, rows: ChangeRow[], position: number): Promise<void> {
    const changes = await describeChanges({ ...this.#session, caller }, rows)
    const projectOf = (row: ChangeRow) =>
      row.subject_type === 'project' ? row.subject_id : row.project_id
    const open = await projectsOpenTo(
      this.#session,
      caller,
      changes.map((change) => projectOf(change.row)),
    )
    const byUri = new Map<string, Line[]>([[CHANGES_URI, []]])
    for (const { row, ...line } of changes) {
      byUri.get(CHANGES_URI)?.push(line)
      // A change the caller may see can be in a project they may not open (a task they
      // created there): that project's URI hears nothing of it, as one that does not exist.
      const project = projectOf(row)
      if (project && open.has(project))
        byUri.set(projectUri(project), [...(byUri.get(projectUri(project)) ?? []), line])
    }
    const cursor = this.#session.feed.cursorOf(caller, position)
    for (const [uri, lines] of byUri) {
      const _meta = { [CHANGES_META]: lines, [CURSOR_META]: cursor }
      this.publish({ kind: 'resource_updated', uri, params: { _meta } })
    }
  }

  // Whether the client has left what it was sent unread for too long.
  #clientStopsReading(): boolean {
    if (!this.#session.asker.congested?.()) {
      this.#congestedSince = null
      return false
    }
    this.#congestedSince ??= performance.now()
    const bound = this.#session.deps.config.mcpStreamUnreadTimeoutMs
    return performance.now() - this.#congestedSince >= bound
  }

  // Ends a stream whose client does not read, saying why where it would read next.
  #endUnread(position: number): void {
    const ended =
      'The client left its updates unread too long, and this stream has ended. Resume with the changes tool from the cursor here.'
    const cursor = this.#session.feed.cursorOf(this.#session.caller, position)
    const _meta = { [CHANGES_META]: [], [CURSOR_META]: cursor, [ENDED_META]: ended }
    this.publish({ kind: 'resource_updated', uri: CHANGES_URI, params: { _meta } })
    this.#session.log.info('change subscription ended: its client did not read')
    this.end()
  }
}

// The rows whose resource the caller may open now and whose type its token reads: what a read of
// the feed as this caller would show of them.
async function visibleTo(
  session: McpSession,
  caller: Caller,
  rows: readonly ChangeRow[],
): Promise<ChangeRow[]> {
  const readable = new Set(CHANGE_KINDS.filter((kind) => caller.readableKinds.includes(kind)))
  const typed = rows.filter((row) => readable.has(row.subject_type))
  const open = await openableIds(
    session.deps.db,
    caller.visibility,
    typed.map((row) => row.subject_id),
  )
  return typed.filter((row) => open.has(row.subject_id))
}

// The projects among `ids` that the caller may open now, as a read of them would decide.
async function projectsOpenTo(
  session: McpSession,
  caller: Caller,
  ids: readonly (string | null)[],
): Promise<Set<string>> {
  if (!caller.credential.scopes.has('project:read')) return new Set()
  const projects = [...new Set(ids.filter((id): id is string => id !== null))]
  return openableIds(session.deps.db, caller.visibility, projects)
}

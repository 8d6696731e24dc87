import type { ServerEvent, ServerEventBus } from '@modelcontextprotocol/server'
import type { Caller } from '../access/caller.ts'
import { openableIds } from '../access/visibility.ts'
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

// One change as an update carries it: what the `changes` tool shows of it.
type Line = Omit<Awaited<ReturnType<typeof describeChanges>>[number], 'row'>

// Changes one notification carries at most; more follow in the next one.
const CHANGES_PER_NOTIFICATION = 20
// The longest one read of the feed waits before it asks again: a wait ends sooner on a change.
const WAIT_SECONDS = 25

/**
 * The change-event bus of one `subscriptions/listen` stream (protocol 2026-07-28): its caller's
 * change feed, from the moment the stream opens, as `notifications/resources/updated` of
 * `workgraph://changes` and of the project each change is in. Every notification carries the
 * changes themselves (one line's worth each: event, title, actor, time, URL) and the feed cursor
 * after them, so a client that reconnects resumes with the `changes` tool. The feed is read as
 * the caller may see it at each read; a credential that ends closes the stream.
 *
 * One bus per stream, never shared: what a caller's stream hears is only what that caller may
 * open, so the bus itself is the permission boundary.
 */
export class CallerChangeBus implements ServerEventBus {
  readonly #session: McpSession
  readonly #listeners = new Set<(event: ServerEvent) => void>()
  readonly #stopped = new AbortController()
  readonly #onEnd: () => void
  #running = false

  /** `onEnd` is called once when the feed can no longer be followed (credential ended, failure). */
  constructor(session: McpSession, onEnd: () => void) {
    this.#session = session
    this.#onEnd = onEnd
  }

  /** Delivers an event to this stream's listener (the SDK's router). */
  publish(event: ServerEvent): void {
    for (const listener of this.#listeners) listener(event)
  }

  /** The SDK's router subscribes once the stream is acknowledged: following starts then. */
  subscribe(listener: (event: ServerEvent) => void): () => void {
    this.#listeners.add(listener)
    if (!this.#running) {
      this.#running = true
      void this.#follow()
    }
    return () => {
      this.#listeners.delete(listener)
      if (this.#listeners.size === 0) this.stop()
    }
  }

  /** Stops following: the stream ended. */
  stop(): void {
    this.#stopped.abort()
  }

  async #follow(): Promise<void> {
    const { feed, asker, log } = this.#session
    // The app's close ends every wait at once: following must stop then, not read again.
    const signal = AbortSignal.any([asker.signal, this.#stopped.signal, feed.closing])
    const waiter = { signal, reauthenticate: asker.reauthenticate }
    try {
      let cursor = (
        await feed.read(this.#session.caller, { events: [], limit: 1, wait: 0 }, waiter)
      ).next_cursor
      while (!signal.aborted) {
        // Each read is as a request made now would be: access may have changed, or ended.
        const caller = await asker.reauthenticate()
        const page = await feed.read(
          caller,
          { cursor, events: [], limit: CHANGES_PER_NOTIFICATION, wait: WAIT_SECONDS },
          waiter,
        )
        cursor = page.next_cursor
        if (page.rows.length === 0 || signal.aborted) continue
        const reader = page.reader
        const changes = await describeChanges({ ...this.#session, caller: reader }, page.rows)
        const projectOf = (row: (typeof changes)[number]['row']) =>
          row.subject_type === 'project' ? row.subject_id : row.project_id
        const open = await projectsOpenTo(
          this.#session,
          reader,
          changes.map((c) => projectOf(c.row)),
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
        for (const [uri, lines] of byUri) {
          const _meta = { [CHANGES_META]: lines, [CURSOR_META]: cursor }
          this.publish({ kind: 'resource_updated', uri, params: { _meta } })
        }
      }
    } catch (error) {
      // A credential that ended is the 401 a request would get; anything else is ours.
      if (!signal.aborted) log.warn({ err: error }, 'change subscription ended')
    } finally {
      if (!this.#stopped.signal.aborted) this.#onEnd()
    }
  }
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

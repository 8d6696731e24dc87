import Type from 'typebox'
import { readScopeOf } from '../../access/scopes.ts'
import type { ChangeRow } from '../../graph/changes/changes.queries.ts'
import { CHANGE_KINDS } from '../../graph/changes/changes.schemas.ts'
import { parseEventTypes } from '../../graph/changes/event-types.ts'
import { readableNames } from '../../summaries/summary-queries.ts'
import { changeText } from '../change-text.ts'
import { inline, sourceLine } from '../markdown.ts'
import type { McpSession } from '../mcp-session.ts'
import { READ_ONLY, type ToolDefinition } from '../tool-definition.ts'
import { packItems, TOOL_BUDGET, toolError, toolResult } from '../tool-result.ts'
import { itemUrl } from './list-source.ts'
import { Cursor, MaxTokens, Ref } from './tool-schemas.ts'

type ChangesArgs = {
  cursor?: string
  from?: 'start'
  types?: string[]
  project_id?: string
  wait?: number
  limit?: number
  max_tokens?: number
}

/** The longest an MCP call waits for a change: under the usual clients' 30-second call limits. */
const MAX_WAIT_SECONDS = 25

/**
 * `changes`: the change feed of `GET /v1/changes` for an agent's loop: oldest first from a
 * cursor, each change on one line with its resource's name and its actor's, waiting up to 25 s
 * for the next when there is none. Without a cursor it answers the head, where following starts.
 */
export const changesTool: ToolDefinition<ChangesArgs> = {
  name: 'changes',
  title: 'Follow changes',
  description:
    'What changed after a cursor, oldest first; wait (s) for the next. No cursor: the cursor of ' +
    'now, or with from "start" every retained change. types: verbs such as task.completed.',
  anyOfScopes: [...new Set(CHANGE_KINDS.map(readScopeOf))],
  annotations: READ_ONLY,
  input: Type.Object(
    {
      cursor: Cursor,
      from: Type.Optional(
        Type.Literal('start', { description: 'Without cursor: from the oldest.' }),
      ),
      types: Type.Optional(
        Type.Array(Type.String({ maxLength: 50 }), { maxItems: 20, description: 'Only these.' }),
      ),
      project_id: Type.Optional(Type.String({ maxLength: 100, description: 'In this project.' })),
      wait: Type.Optional(
        Type.Integer({ minimum: 0, maximum: MAX_WAIT_SECONDS, description: 'Seconds to wait.' }),
      ),
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 50, description: 'At most.' })),
      max_tokens: MaxTokens,
    },
    { additionalProperties: false },
  ),
  output: Type.Object({ changes: Type.Array(Ref), next_cursor: Type.String() }),
  async run(session, args) {
    try {
      const page = await session.feed.read(
        session.caller,
        {
          cursor: args.cursor,
          from: args.from,
          events: args.types ? parseEventTypes(args.types.join(',')) : [],
          project_id: args.project_id,
          limit: args.limit ?? 20,
          wait: args.wait ?? 0,
        },
        session.asker,
      )
      const changes = await describeChanges({ ...session, caller: page.reader }, page.rows)
      return toolResult(
        packItems(changes, args.max_tokens ?? TOOL_BUDGET.default, (shown, cut) => {
          const last = shown.at(-1)
          const next = cut && last ? page.cursorAfter(last.row) : page.next_cursor
          const lines = [`# Changes (${shown.length} shown)`]
          for (const [i, change] of shown.entries()) {
            const by = change.actor ? [`by ${change.actor}`] : []
            const changed = change.changed ? [change.changed] : []
            lines.push(
              sourceLine(i + 1, change.title, change.url, [
                change.event,
                change.at,
                ...by,
                ...changed,
              ]),
            )
          }
          if (shown.length === 0) lines.push('No new changes.')
          lines.push('', `Next: call changes with cursor "${next}".`)
          return {
            markdown: lines.join('\n'),
            structured: {
              changes: shown.map(({ row: _, ...change }) => change),
              next_cursor: next,
            },
          }
        }),
      )
    } catch (error) {
      return toolError(error)
    }
  },
}

/**
 * Each change with its resource's name and its actor's, where the caller may see them and its
 * token may read their kind (the feed shows only changes of resources the caller may open; an
 * actor may still be hidden). A comment is named by its opening words.
 */
export async function describeChanges(session: McpSession, rows: ChangeRow[]) {
  const names = await readableNames(session.deps.db, session.caller, [
    ...rows.map((row) => row.subject_id),
    ...rows.map((row) => row.actor_id),
  ])
  return rows.map((row) => {
    const actor = names.get(row.actor_id)
    return {
      id: row.id,
      type: 'change',
      title: inline(names.get(row.subject_id) ?? row.verb.replace('.', ' ')),
      url: itemUrl(session, row.subject_type, row.subject_id),
      event: row.verb,
      resource_id: row.subject_id,
      at: row.created_at.toISOString(),
      actor: actor === undefined ? null : inline(actor),
      // The rows' changes are already as the caller may see them (the feed shows them so).
      changed: changeText(row.changes),
      row,
    }
  })
}

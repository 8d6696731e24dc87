import Type from 'typebox'
import {
  activityReferences,
  type CheckinFacts,
  listActivity,
} from '../../activity/activity.queries.ts'
import { bindingOf, readCursor } from '../../api/paging.ts'
import { requireVisible } from '../../api/require-visible.ts'
import type { ActivityVerb } from '../../catalogue/verbs.ts'
import { createdPosition } from '../../db/keyset.ts'
import { knownVerbs } from '../../graph/changes/event-types.ts'
import { readableNames } from '../../summaries/summary-queries.ts'
import { changeText } from '../change-text.ts'
import { data, inline, sourceLine } from '../markdown.ts'
import { READ_ONLY, type ToolDefinition } from '../tool-definition.ts'
import { packItems, TOOL_BUDGET, toolError, toolResult } from '../tool-result.ts'
import { Cursor, MaxTokens, NextCursor, Ref } from './tool-schemas.ts'

type ActivityArgs = {
  project_id?: string
  resource_id?: string
  actor_id?: string
  since?: string
  verbs?: string[]
  limit?: number
  cursor?: string
  max_tokens?: number
}

/**
 * `activity`: what happened, newest first, from the same stream as `GET /v1/activity`: an entry
 * appears only when the caller may open its subject and everything it mentions now.
 */
export const activityTool: ToolDefinition<ActivityArgs> = {
  name: 'activity',
  title: 'Recent activity',
  description: 'What happened recently, newest first; filter by project, resource, actor or time.',
  anyOfScopes: ['activity:read'],
  annotations: READ_ONLY,
  input: Type.Object(
    {
      project_id: Type.Optional(Type.String({ maxLength: 100, description: 'In this project.' })),
      resource_id: Type.Optional(Type.String({ maxLength: 100, description: 'About this id.' })),
      actor_id: Type.Optional(Type.String({ maxLength: 100, description: 'By this person.' })),
      since: Type.Optional(Type.String({ format: 'date-time', description: 'After this time.' })),
      // Checked when called, not listed here: the verbs would be read on every turn.
      verbs: Type.Optional(
        Type.Array(Type.String({ maxLength: 50 }), {
          maxItems: 20,
          uniqueItems: true,
          description: 'Such as task.completed.',
        }),
      ),
      limit: Type.Optional(
        Type.Integer({ minimum: 1, maximum: 50, default: 20, description: 'Entries per page.' }),
      ),
      cursor: Cursor,
      max_tokens: MaxTokens,
    },
    { additionalProperties: false },
  ),
  output: Type.Object({ entries: Type.Array(Ref), next_cursor: NextCursor }),
  async run(session, args) {
    const { deps, caller } = session
    try {
      const { limit = 20, cursor, max_tokens, verbs, ...rest } = args
      const filters: typeof rest & { verbs?: ActivityVerb[] } = verbs
        ? { ...rest, verbs: knownVerbs(verbs, '/verbs', 'These are not activity verbs.') }
        : rest
      await requireVisible(deps.db, caller.visibility, activityReferences(filters))
      const binding = bindingOf(caller.credential.id, 'mcp:activity', {}, filters)
      const after = readCursor(deps.cursors, cursor, binding)
      const { visibility, readableKinds } = caller
      const rows = await listActivity(deps.db, visibility, readableKinds, filters, after, limit)
      const page = rows.slice(0, limit)
      const ws = caller.principal.workspaceId
      // Who acted, by name where the caller may see them and its token may read people.
      const names = await readableNames(
        deps.db,
        caller,
        page.flatMap((row) => [actorShown(row), row.on_id]),
      )
      const entries = page.map((row) => {
        // Cite the subject when the token may read it; otherwise the entry itself.
        const subject = row.subject_title !== null
        return {
          id: row.id,
          type: 'activity',
          title: inline(`${row.verb.replace('.', ' ')}${subject ? `: ${row.subject_title}` : ''}`),
          url: subject
            ? deps.urls.resource(ws, row.subject_type, row.subject_id).url
            : deps.urls.resource(ws, 'activity', row.id).url,
          verb: row.verb,
          subject_title: row.subject_title,
          at: row.created_at.toISOString(),
          actor_id: actorShown(row),
          actor: nameOf(names, actorShown(row)),
          // What a comment is on, and what a check-in logged: what an agent asks next.
          on_id: row.on_id,
          on: nameOf(names, row.on_id),
          checkin: row.subject_title === null ? null : row.checkin,
          changes: row.changes,
          position: createdPosition(row),
        }
      })
      const answer = packItems(entries, max_tokens ?? TOOL_BUDGET.default, (shown, cut) => {
        const last = shown.at(-1)
        const next =
          (cut || rows.length > limit) && last ? deps.cursors.encode(last.position, binding) : null
        const lines = [`# Activity (${shown.length} shown)`]
        for (const [i, entry] of shown.entries()) {
          const actor = entry.actor ?? entry.actor_id
          const by = actor ? [`by ${actor}`] : []
          const on = entry.on ? [`on ${data(entry.on, 120)}`] : []
          const logged = entry.checkin ? [checkinText(entry.checkin)] : []
          const changed = changeText(entry.changes)
          if (changed) logged.push(changed)
          const label = entry.subject_title ?? entry.verb
          lines.push(
            sourceLine(i + 1, label, entry.url, [entry.verb, entry.at, ...by, ...on, ...logged]),
          )
        }
        if (shown.length === 0) lines.push('No activity matches.')
        if (next) lines.push('', `More: call activity again with cursor "${next}".`)
        return {
          markdown: lines.join('\n'),
          structured: {
            entries: shown.map(({ position: _, subject_title: __, ...entry }) => entry),
            next_cursor: next,
          },
        }
      })
      return toolResult(answer)
    } catch (error) {
      return toolError(error)
    }
  },
}

// A check-in's value as a fact of its line: `“Signups” at 40 users (confidence 60%)`.
function checkinText(checkin: CheckinFacts): string {
  const unit = checkin.unit.trim() ? ` ${inline(checkin.unit)}` : ''
  const confidence =
    checkin.confidence === null ? '' : ` (confidence ${Math.round(checkin.confidence * 100)}%)`
  return `${data(checkin.key_result, 120)} at ${checkin.value}${unit}${confidence}`
}

// The actor of an entry, if the caller may see them.
function actorShown(row: { actor_id: string; actor_visible: boolean }): string | null {
  return row.actor_visible ? row.actor_id : null
}

// A name from `names`, by the rule for people's text; null when the caller may not see it.
function nameOf(names: Map<string, string>, id: string | null): string | null {
  const name = id ? names.get(id) : undefined
  return name === undefined ? null : inline(name)
}

import Type from 'typebox'
import { bindingOf, readCursor } from '../../api/paging.ts'
import { ProblemError } from '../../api/problem-catalogue.ts'
import { requireVisible } from '../../api/require-visible.ts'
import { kindNamed, kindsWith } from '../../catalogue/catalogue.ts'
import type { KindWith } from '../../catalogue/kind.ts'
import { PROJECT_STATUSES } from '../../graph/projects/projects.schemas.ts'
import { TASK_STATUSES } from '../../graph/tasks/tasks.schemas.ts'
import { inline, sourceLine } from '../markdown.ts'
import type { McpSession } from '../mcp-session.ts'
import { READ_ONLY, type ToolDefinition } from '../tool-definition.ts'
import { packItems, TOOL_BUDGET, toolError, toolResult } from '../tool-result.ts'
import type { ListFilters, ListItem, ListSource } from './list-source.ts'
import { Cursor, MaxTokens, NextCursor, Ref } from './tool-schemas.ts'

type ListArgs = ListFilters & {
  type: string
  limit?: number
  cursor?: string
  max_tokens?: number
}

/**
 * `list`: one type's items the caller may open, newest first (people and teams by name), with
 * the filters of its `/v1` list and a cursor. Rows are compact (title, URL, a few facts); `fetch`
 * gives any of them in full.
 */
export const listTool: ToolDefinition<ListArgs> = {
  name: 'list',
  title: 'List items',
  description:
    'List projects, tasks, canvases, OKRs, people or teams you can open, with filters and paging.',
  // Read when a session's tools are listed: every kind with a list part by then is offered.
  get anyOfScopes() {
    return [...new Set(kindsWith('list').map((kind) => kind.readScope))]
  },
  annotations: READ_ONLY,
  get input() {
    return listInput(kindsWith('list').map((kind) => kind.name))
  },
  output: Type.Object({ items: Type.Array(Ref), next_cursor: NextCursor }),
  async run(session, args) {
    try {
      return toolResult(await listItems(session, args))
    } catch (error) {
      return toolError(error)
    }
  },
}

// The arguments of `list`, for the kinds it reads.
function listInput(kinds: readonly string[]) {
  return Type.Object(
    {
      type: Type.Enum(kinds, { description: 'What to list.' }),
      project_id: Type.Optional(Type.String({ maxLength: 100, description: 'In this project.' })),
      assignee_id: Type.Optional(
        Type.String({ maxLength: 100, description: 'A person id, or "me". Tasks only.' }),
      ),
      team_id: Type.Optional(Type.String({ maxLength: 100, description: 'Of this team.' })),
      status: Type.Optional(
        Type.Array(Type.Enum([...new Set([...TASK_STATUSES, ...PROJECT_STATUSES])]), {
          uniqueItems: true,
          description: 'Task or project statuses.',
        }),
      ),
      limit: Type.Optional(
        Type.Integer({ minimum: 1, maximum: 50, default: 20, description: 'Rows per page.' }),
      ),
      cursor: Cursor,
      max_tokens: MaxTokens,
    },
    { additionalProperties: false },
  )
}

async function listItems(session: McpSession, args: ListArgs) {
  const { deps, caller } = session
  const kind = listedKind(args.type)
  const source = kind.list
  if (!caller.credential.scopes.has(kind.readScope)) {
    throw new ProblemError('insufficient_scope', `Listing ${args.type} needs ${kind.readScope}.`, {
      required_scopes: [kind.readScope],
    })
  }
  refuseFiltersOfOtherTypes(args, source)
  const filters: ListFilters = {
    ...(args.project_id ? { project_id: args.project_id } : {}),
    ...(args.assignee_id
      ? { assignee_id: args.assignee_id === 'me' ? caller.principal.actorId : args.assignee_id }
      : {}),
    ...(args.team_id ? { team_id: args.team_id } : {}),
    ...(args.status ? { status: args.status } : {}),
  }
  await requireVisible(deps.db, caller.visibility, source.references(filters))
  const binding = bindingOf(caller.credential.id, `mcp:list:${args.type}`, {}, filters)
  const after = readCursor(deps.cursors, args.cursor, binding)
  const limit = args.limit ?? 20
  const rows = await source.load(session, filters, after, limit)
  const page = rows.slice(0, limit).map(shown)
  const cursorAfter = (item: ListItem | undefined) =>
    item ? deps.cursors.encode(item.position, binding) : null
  return packItems(page, args.max_tokens ?? TOOL_BUDGET.default, (shown, cut) => {
    const next = cut || rows.length > limit ? cursorAfter(shown.at(-1)) : null
    const lines = [`# ${args.type} list (${shown.length} shown)`]
    for (const [i, item] of shown.entries()) {
      const facts = Object.entries(item.facts)
        .filter(([, value]) => value !== null && value !== undefined)
        .map(([name, value]) => `${name} ${value}`)
      lines.push(sourceLine(i + 1, item.title, item.url, [item.id, ...facts]))
    }
    if (shown.length === 0) lines.push('Nothing to show.')
    if (next) lines.push('', `More: call list again with cursor "${next}".`)
    return {
      markdown: lines.join('\n'),
      structured: {
        type: args.type,
        items: shown.map(({ position: _, ...item }) => item),
        next_cursor: next,
      },
    }
  })
}

// The kind the arguments name; the schema admits only kinds with a list part.
function listedKind(name: string): KindWith<'list'> {
  const kind = kindNamed(name)
  if (!kind?.list) throw new ProblemError('validation_failed', `${name} cannot be listed.`)
  return kind as KindWith<'list'>
}

// An item as both faces show it: its title and text facts by the rule for people's text.
function shown(item: ListItem): ListItem {
  const facts = Object.entries(item.facts).map(([name, value]) => [
    name,
    typeof value === 'string' ? inline(value) : value,
  ])
  return { ...item, title: inline(item.title), facts: Object.fromEntries(facts) }
}

// A filter or status that does not apply to the listed type would otherwise be ignored, and the
// agent would read an unfiltered list as a filtered one: a 422 naming what does not apply.
function refuseFiltersOfOtherTypes(args: ListArgs, source: ListSource): void {
  const names = ['project_id', 'assignee_id', 'team_id', 'status'] as const
  const errors = names
    .filter((name) => args[name] !== undefined && !source.filters.includes(name))
    .map((name) => ({ path: `/${name}`, message: `does not apply to ${args.type} lists` }))
  for (const status of source.filters.includes('status') ? (args.status ?? []) : []) {
    if (!source.statuses?.includes(status))
      errors.push({ path: '/status', message: `${status} is not a status of ${args.type}` })
  }
  if (errors.length > 0) {
    throw new ProblemError('validation_failed', `Filters that ${args.type} lists do not have.`, {
      errors,
    })
  }
}

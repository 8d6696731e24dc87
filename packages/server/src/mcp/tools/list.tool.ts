import Type from 'typebox'
import { namedReference } from '../../api/named-reference.ts'
import { bindingOf, readCursor } from '../../api/paging.ts'
import { ProblemError } from '../../api/problem-catalogue.ts'
import { requireVisible } from '../../api/require-visible.ts'
import { kindNamed, kindsWith } from '../../catalogue/catalogue.ts'
import type { KindWith } from '../../catalogue/kind.ts'
import { PROJECT_STATUSES } from '../../graph/projects/projects.schemas.ts'
import { TASK_STATUSES } from '../../graph/tasks/tasks.schemas.ts'
import { data, inline } from '../markdown.ts'
import type { McpSession } from '../mcp-session.ts'
import { READ_ONLY, type ToolDefinition } from '../tool-definition.ts'
import { packItems, TOOL_BUDGET, toolError, toolResult } from '../tool-result.ts'
import {
  itemUrl,
  LIST_FILTERS,
  type ListFilters,
  type ListItem,
  type ListSource,
} from './list-source.ts'
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
  description: "One type's items you can open, with the filters of its /v1 list.",
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

// The arguments of `list`, for the kinds it reads: the filters of their `/v1` lists, by name.
function listInput(kinds: readonly string[]) {
  const Id = (description: string) => Type.Optional(Type.String({ maxLength: 100, description }))
  const Day = (description: string) => Type.Optional(Type.String({ format: 'date', description }))
  return Type.Object(
    {
      type: Type.Enum(kinds, { description: 'What to list.' }),
      project_id: Id('Its project.'),
      assignee_id: Id('Person id or me.'),
      team_id: Id('Team: its OKRs or members.'),
      status: Type.Optional(
        Type.Array(Type.Enum([...new Set([...TASK_STATUSES, ...PROJECT_STATUSES])]), {
          uniqueItems: true,
          description: 'Task or project statuses.',
        }),
      ),
      due_before: Day('Inclusive.'),
      due_after: Day('Inclusive.'),
      session: Type.Optional(Type.String({ maxLength: 50, description: 'Such as 2026-Q4.' })),
      limit: Type.Optional(
        Type.Integer({ minimum: 1, maximum: 50, default: 20, description: 'Rows.' }),
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
  // `me` and names as REST reads them (api/named-reference.ts): one rule for every id field.
  const named: Partial<Record<(typeof LIST_FILTERS)[number], unknown>> = {
    assignee_id: await namedReference(deps.db, caller, 'person', args.assignee_id, '/assignee_id'),
    project_id: await namedReference(deps.db, caller, 'project', args.project_id, '/project_id'),
    team_id: await namedReference(deps.db, caller, 'team', args.team_id, '/team_id'),
  }
  const filters: ListFilters = Object.fromEntries(
    LIST_FILTERS.map((name) => [name, name in named ? named[name] : args[name]]).filter(
      ([, value]) => value !== undefined,
    ),
  )
  await requireVisible(deps.db, caller.visibility, source.references(filters))
  const binding = bindingOf(caller.credential.id, `mcp:list:${args.type}`, {}, filters)
  const after = readCursor(deps.cursors, args.cursor, binding)
  const limit = args.limit ?? 20
  const rows = await source.load(session, filters, after, limit)
  const page = rows.slice(0, limit).map(shown)
  const cursorAfter = (item: ListItem | undefined) =>
    item ? deps.cursors.encode(item.position, binding) : null
  // Where a row's page is, said once: every row's page is this with its id.
  const pageOf = itemUrl(session, args.type, '{id}')
  return packItems(page, args.max_tokens ?? TOOL_BUDGET.default, (shown, cut) => {
    const next = cut || rows.length > limit ? cursorAfter(shown.at(-1)) : null
    return {
      markdown: listMarkdown(args.type, shown, pageOf, next),
      structured: {
        type: args.type,
        items: shown.map(({ position: _, ...item }) => item),
        next_cursor: next,
      },
    }
  })
}

/**
 * A list as Markdown (docs/mcp.md, "Results"): a row is `[n] “Title” id · facts`, cited by its id,
 * which `fetch` takes. What a model would otherwise read on every row is said once above them:
 * where a row's page is, which fact stands in which place, and the facts every row shares.
 */
function listMarkdown(
  type: string,
  shown: readonly ListItem[],
  pageOf: string,
  next: string | null,
): string {
  const lines = [`# ${type} list (${shown.length} shown)`]
  if (shown.length === 0) lines.push('Nothing to show.')
  else lines.push(`Page of a row: ${pageOf}; fetch takes its id.`)
  const shared = sharedFacts(shown)
  if (shared.size > 0) {
    const words = [...shared].map(([name, value]) => (value === true ? name : `${name} ${value}`))
    lines.push(`Every row: ${words.join(' · ')}.`)
  }
  // The places of the facts: those of the first row (a source gives every row the same facts),
  // but the shared ones and flags, which are said by name.
  const places = Object.entries(shown[0]?.facts ?? {})
    .filter(([name, value]) => !shared.has(name) && typeof value !== 'boolean')
    .map(([name]) => name)
  if (places.length > 0) lines.push(`Row: [n] “title” id · ${places.join(' · ')} (– none).`)
  else if (shown.length > 0) lines.push('Row: [n] “title” id.')
  for (const [i, item] of shown.entries()) {
    const values: string[] = []
    for (const [name, value] of Object.entries(item.facts)) {
      if (shared.has(name)) continue
      // A flag follows the fact before it, by its name when true: `2026-11-14 overdue`.
      if (typeof value === 'boolean') {
        if (value && values.length > 0) values.push(`${values.pop()} ${name}`)
      } else values.push(value === null ? '–' : String(value))
    }
    lines.push([`[${i + 1}] ${data(item.title, 120)} ${item.id}`, ...values].join(' · '))
  }
  if (next) lines.push('', `More: call list again with cursor "${next}".`)
  return lines.join('\n')
}

// The facts with one value on every row of a page of two or more, said once for the page.
function sharedFacts(shown: readonly ListItem[]): Map<string, string | number | true> {
  const [first, ...others] = shown
  const shared = new Map<string, string | number | true>()
  if (!first || others.length === 0) return shared
  for (const [name, value] of Object.entries(first.facts)) {
    if (value === null || value === false) continue
    if (others.every((item) => item.facts[name] === value)) shared.set(name, value)
  }
  return shared
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
  const errors = LIST_FILTERS.filter(
    (name) => args[name] !== undefined && !source.filters.includes(name),
  ).map((name) => ({ path: `/${name}`, message: `does not apply to ${args.type} lists` }))
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

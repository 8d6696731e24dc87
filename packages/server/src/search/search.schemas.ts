import Type from 'typebox'
import { DateOnly, Nullable, Timestamp } from '../api/schemas.ts'
import { allKinds } from '../catalogue/catalogue.ts'
import { HEALTH_VERDICTS } from '../graph/okrs/okr-health.ts'
import { OkrHealthSchema } from '../graph/okrs/okrs.schemas.ts'
import { TASK_STATUSES } from '../graph/tasks/tasks.schemas.ts'

/** Kinds of result search can return: those of the catalogue that search finds. */
export const SEARCH_KINDS: readonly string[] = allKinds()
  .filter((kind) => kind.search)
  .map((kind) => kind.name)

/** A searchable kind's name. */
export type SearchKind = string

const Id = Type.String({ minLength: 1, maxLength: 100 })
const Statuses = Type.Array(Type.Enum([...TASK_STATUSES]), { minItems: 1, uniqueItems: true })
const Healths = Type.Array(Type.Enum([...HEALTH_VERDICTS]), { minItems: 1, uniqueItems: true })

/** Structured filters of a search (docs/api.md, "Search"); each applies to the kinds it names. */
export const SearchFilters = Type.Object(
  {
    status: Type.Optional(
      Type.Union([Type.Enum([...TASK_STATUSES]), Statuses], {
        description: 'Task status, or a list of them; keeps tasks only.',
      }),
    ),
    assignee: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description: '`me`, a person id, or `none` (tasks nobody is assigned); keeps tasks only.',
      }),
    ),
    project_id: Type.Optional(Id),
    due: Type.Optional(
      Type.Literal('none', { description: '`none`: tasks without a due date; keeps tasks only.' }),
    ),
    due_before: Type.Optional(DateOnly),
    due_after: Type.Optional(DateOnly),
    updated_after: Type.Optional(Type.Union([DateOnly, Timestamp])),
    updated_before: Type.Optional(Type.Union([DateOnly, Timestamp])),
    completed_after: Type.Optional(
      Type.Union([DateOnly, Timestamp], {
        description: 'Tasks completed at or after this day or time; keeps tasks only.',
      }),
    ),
    completed_before: Type.Optional(
      Type.Union([DateOnly, Timestamp], {
        description: 'Tasks completed before this day or time; keeps tasks only.',
      }),
    ),
    created_after: Type.Optional(
      Type.Union([DateOnly, Timestamp], {
        description: 'Made at or after this day or time.',
      }),
    ),
    created_before: Type.Optional(
      Type.Union([DateOnly, Timestamp], { description: 'Made before this day or time.' }),
    ),
    health: Type.Optional(
      Type.Union([Type.Enum([...HEALTH_VERDICTS]), Healths], {
        description:
          'An objective\'s health (docs/api.md, "OKR health"), or a list; keeps objectives only.',
      }),
    ),
    team: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description:
          "A team's id or name; keeps its members, the projects it belongs to and the tasks " +
          'assigned to its members.',
      }),
    ),
    created_by: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description: '`me`, a person or an integration id; keeps tasks, comments and activity.',
      }),
    ),
    member: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description:
          '`me` or a person id; keeps the projects they are on: as a member, through a team you ' +
          'can see, or as the owner.',
      }),
    ),
    owner: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description: '`me` or a person id; keeps the projects, canvases and objectives they own.',
      }),
    ),
    on: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description: 'The id of a task, project, canvas or objective; keeps the comments on it.',
      }),
    ),
  },
  { title: 'SearchFilters', additionalProperties: false },
)

/** `POST /v1/search` (docs/api.md, "Search"). */
export const SearchBody = Type.Object(
  {
    query: Type.String({
      minLength: 1,
      maxLength: 500,
      description:
        'A question or words to find; "quoted phrase", -excluded, or; filters such as status:blocked.',
    }),
    filters: Type.Optional(SearchFilters),
    types: Type.Optional(
      Type.Array(Type.Enum([...SEARCH_KINDS]), {
        minItems: 1,
        uniqueItems: true,
        description:
          'Only these kinds (each needs its read scope). Default: every kind the token may read.',
      }),
    ),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 50, default: 10 })),
    cursor: Type.Optional(Type.String({ maxLength: 2000 })),
    max_tokens: Type.Optional(
      Type.Integer({
        minimum: 100,
        maximum: 20_000,
        default: 2000,
        description: 'Token budget of the whole response (o200k_base).',
      }),
    ),
  },
  {
    title: 'SearchRequest',
    examples: [{ query: 'what is blocked in the launch project?', types: ['task'], limit: 5 }],
    additionalProperties: false,
  },
)

/** Where cited text lies in its field, in code points (docs/api.md, "Citations"). */
export const CitedRange = Type.Object(
  {
    start: Type.Integer({ minimum: 0, description: 'The first character, counting from 0.' }),
    end: Type.Integer({ minimum: 0, description: 'One past the last character.' }),
  },
  {
    title: 'CitedRange',
    description:
      'Code points of the field as of `updated_at`; the quote (or snippet, or title) is that ' +
      'text on one line, cut with … when long. Null where the text is composed, not a field.',
  },
)

/** Where a hit's match comes from; the hit itself is the cited resource. */
export const Citation = Type.Object(
  {
    field: Type.String({
      description:
        'The field that matched: title, description, summary, body, key_results or verb.',
    }),
    quote: Type.Optional(
      Type.String({
        description:
          'Text of that field, only when it differs from both the title and the snippet.',
      }),
    ),
    updated_at: Type.Unsafe<string>({
      ...Timestamp,
      description: "The cited resource's version: its `updated_at` when the text was cited.",
    }),
    range: Nullable(CitedRange),
  },
  { title: 'Citation' },
)

/** A budget report (docs/api.md, "Search"). */
export const Budget = Type.Object(
  {
    max_tokens: Type.Integer(),
    used_tokens: Type.Integer({ description: 'Tokens of this whole response body.' }),
    encoding: Type.Literal('o200k_base'),
  },
  { title: 'SearchBudget' },
)

/** One search hit (docs/api.md, "Search"). */
export const SearchHit = Type.Object(
  {
    id: Type.String(),
    type: Type.Enum([...SEARCH_KINDS]),
    title: Type.String(),
    summary: Type.Optional(Type.String({ description: 'Canvases only.' })),
    due: Type.Optional(Nullable(DateOnly)),
    overdue: Type.Optional(
      Type.Boolean({
        description: 'Tasks: due before today (UTC) and not done, as `overdue` reads it.',
      }),
    ),
    status: Type.Optional(Type.String({ description: 'Tasks and projects: their status.' })),
    assignee: Type.Optional(
      Nullable(
        Type.String({
          description:
            "Tasks: the assignee's name; null when unassigned, or not someone you may see, or without people:read.",
        }),
      ),
    ),
    progress: Type.Optional(
      Type.Number({ minimum: 0, maximum: 1, description: 'Objectives: their progress.' }),
    ),
    confidence: Type.Optional(
      Nullable(
        Type.Number({
          minimum: 0,
          maximum: 1,
          description: 'Objectives: the confidence of their latest check-in that gave one.',
        }),
      ),
    ),
    health: Type.Optional(Nullable(OkrHealthSchema)),
    url: Type.String({ description: 'The page in the product; the API URL is built from the id.' }),
    snippet: Type.String({
      description: "At most about 240 characters of the hit's own text around the match.",
    }),
    path: Type.String({ description: 'Visible ancestors, such as "Launch › Write copy".' }),
    score: Type.Number(),
    updated_at: Timestamp,
    citation: Citation,
    truncated: Type.Optional(
      Type.Boolean({ description: 'Set when long text was cut to fit the budget.' }),
    ),
  },
  { title: 'SearchHit' },
)

/** Filters as the search applied them: the request's and those read from the query. */
export const AppliedFilters = Type.Object(
  {
    status: Type.Optional(Statuses),
    assignee: Type.Optional(Type.String()),
    assignee_name: Type.Optional(
      Type.String({ description: 'The name of the person `assignee` was read as.' }),
    ),
    project_id: Type.Optional(Type.String()),
    due: Type.Optional(Type.Literal('none')),
    project_name: Type.Optional(Type.String()),
    project: Type.Optional(
      Type.String({ description: 'Words of `project:` that name no project you can open.' }),
    ),
    due_before: Type.Optional(DateOnly),
    due_after: Type.Optional(DateOnly),
    updated_after: Type.Optional(Type.String()),
    updated_before: Type.Optional(Type.String()),
    completed_after: Type.Optional(Type.String()),
    completed_before: Type.Optional(Type.String()),
    created_after: Type.Optional(Type.String()),
    created_before: Type.Optional(Type.String()),
    health: Type.Optional(Healths),
    team: Type.Optional(Type.String()),
    team_name: Type.Optional(
      Type.String({ description: 'The name of the team `team` was read as.' }),
    ),
    created_by: Type.Optional(Type.String()),
    created_by_name: Type.Optional(
      Type.String({ description: 'The name of the person `created_by` was read as.' }),
    ),
    member: Type.Optional(Type.String()),
    owner: Type.Optional(Type.String()),
    on: Type.Optional(Type.String()),
    on_title: Type.Optional(
      Type.String({ description: 'The title of what `on` was read as, from the query.' }),
    ),
  },
  { title: 'SearchAppliedFilters' },
)

/** What the query became: the words searched and the filters applied. */
export const Interpreted = Type.Object(
  {
    words: Type.Array(Type.String(), { description: 'Meaningful words; `a or b` is one entry.' }),
    phrases: Type.Optional(Type.Array(Type.String())),
    excluded: Type.Optional(Type.Array(Type.String())),
    filters: AppliedFilters,
    types: Type.Array(Type.Enum([...SEARCH_KINDS]), { description: 'Kinds searched.' }),
    broader: Type.Optional(
      Type.String({
        description:
          'When nothing matched the words with the filters: the words alone, a query to try next.',
      }),
    ),
    dropped: Type.Optional(
      Type.Object(
        {
          filters: AppliedFilters,
          types: Type.Array(Type.Enum([...SEARCH_KINDS])),
        },
        {
          description:
            'When nothing matched everything read from the words: the filters read (states, times, health, what is missing) and the kinds named that this answer left out. `filters` and `types` above are what it kept; names, `filters` given and typed filters are always kept.',
        },
      ),
    ),
  },
  { title: 'SearchInterpretation' },
)

/** The answer to a search. */
export const SearchResponse = Type.Object(
  {
    results: Type.Array(SearchHit),
    next_cursor: Nullable(Type.String()),
    interpreted: Interpreted,
    budget: Budget,
  },
  { title: 'SearchResult' },
)

import Type from 'typebox'
import { DateOnly, Nullable, Timestamp } from '../http/schemas.ts'

/** Kinds of result search can return. */
export const SEARCH_TYPES = ['project', 'canvas', 'task', 'okr', 'comment', 'activity'] as const

/** A searchable kind. */
export type SearchType = (typeof SEARCH_TYPES)[number]

/** `POST /v1/search` (docs/api.md, "Search"). */
export const SearchBody = Type.Object(
  {
    query: Type.String({
      minLength: 1,
      maxLength: 500,
      description: 'Words to find; websearch syntax: "quoted phrase", -excluded, or.',
    }),
    types: Type.Optional(
      Type.Array(Type.Enum([...SEARCH_TYPES]), {
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
  { additionalProperties: false },
)

/** Where a hit's statement comes from. */
export const Citation = Type.Object({
  id: Type.String(),
  url: Type.String(),
  title: Type.String(),
  field: Type.String({
    description:
      'The field the quote is from: title, description, summary, body, key_results or verb.',
  }),
  quote: Type.String({
    description: 'Text of that field, quoted verbatim (cut at a sentence boundary when long).',
  }),
})

/** A budget report (docs/api.md, "Search"). */
export const Budget = Type.Object({
  max_tokens: Type.Integer(),
  used_tokens: Type.Integer({ description: 'Tokens of this whole response body.' }),
  encoding: Type.Literal('o200k_base'),
})

/** One search hit (docs/api.md, "Search"). */
export const SearchHit = Type.Object({
  id: Type.String(),
  type: Type.Enum([...SEARCH_TYPES]),
  title: Type.String(),
  summary: Type.Optional(Type.String({ description: 'Canvases only.' })),
  due: Type.Optional(Nullable(DateOnly)),
  url: Type.String(),
  api_url: Type.String(),
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
})

/** The answer to a search. */
export const SearchResponse = Type.Object({
  results: Type.Array(SearchHit),
  next_cursor: Nullable(Type.String()),
  budget: Budget,
})

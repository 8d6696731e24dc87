import Type from 'typebox'
import { Timestamp } from '../http/schemas.ts'
import { Budget } from '../search/search.schemas.ts'

/** A source a summary statement rests on. */
export const SummaryCitation = Type.Object({
  id: Type.String(),
  url: Type.String(),
  title: Type.String(),
  field: Type.String({ description: 'The field the statement comes from.' }),
  quote: Type.Optional(
    Type.String({
      description: 'Text quoted from that field, verbatim or cut at a sentence boundary.',
    }),
  ),
})

/** A visible neighbour named by a summary. */
export const SummaryLink = Type.Object({
  rel: Type.String(),
  id: Type.String(),
  type: Type.String(),
  title: Type.String(),
  url: Type.String(),
})

/** `GET /v1/resources/:id/summary` (docs/api.md, "Summaries"). */
export const SummaryResponse = Type.Object({
  id: Type.String(),
  type: Type.String(),
  title: Type.String(),
  url: Type.String(),
  as_of: Timestamp,
  text: Type.String({
    description: 'Statements, each ending with the numbers of its citations, such as [1][3].',
  }),
  facts: Type.Record(
    Type.String(),
    Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()]),
    {
      description: 'Typed key facts; counts count only what the caller may open.',
    },
  ),
  links: Type.Array(SummaryLink),
  citations: Type.Array(SummaryCitation, { description: 'Citation n is the n-th entry.' }),
  truncated: Type.Boolean({
    description: 'Set when statements or links were left out to fit max_tokens.',
  }),
  budget: Budget,
})

/** `?max_tokens=` of a summary. */
export const SummaryQuery = Type.Object(
  { max_tokens: Type.Optional(Type.Integer({ minimum: 100, maximum: 20_000, default: 1000 })) },
  { additionalProperties: false },
)

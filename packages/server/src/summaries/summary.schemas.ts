import Type, { type Static } from 'typebox'
import { Nullable, Timestamp } from '../api/schemas.ts'
import { Budget, CitedRange } from '../search/search.schemas.ts'

/** A resource a summary names: `[n]` in its text refers to the n-th source. */
export const SummarySource = Type.Object(
  {
    id: Type.String({ description: 'Its id: its summary is `GET /v1/resources/{id}/summary`.' }),
    type: Type.String(),
    title: Type.String(),
    url: Type.String({ description: 'Its page in the product; no other field repeats it.' }),
    updated_at: Type.Unsafe<string>({
      ...Timestamp,
      description: 'Its version: `updated_at`, or `created_at` for what never changes.',
    }),
  },
  { title: 'SummarySource' },
)

/** Where a quotation in `text` comes from: a field of a resource, at a version. */
export const SummaryQuote = Type.Object(
  {
    id: Type.String({ description: 'The quoted resource (the subject or a source).' }),
    updated_at: Type.Unsafe<string>({ ...Timestamp, description: 'Its version when quoted.' }),
    field: Type.String({ description: 'The quoted field: description, summary, body or note.' }),
    range: Nullable(CitedRange),
  },
  { title: 'SummaryQuote' },
)

/** A neighbour worth following next, as the number of its source. */
export const SummaryLink = Type.Object(
  {
    rel: Type.String({ description: 'How it relates to the subject: project, assignee, owner…' }),
    source: Type.Integer({ minimum: 1, description: 'Its entry in `sources` (1 is the first).' }),
  },
  { title: 'SummaryLink' },
)

/** A typed key fact: counts count only what the caller may open. */
export const SummaryFact = Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()], {
  title: 'SummaryFact',
})

// What both forms of a summary say alike: the subject, the statements and the facts…
const SUBJECT_AND_STATEMENTS = {
  id: Type.String(),
  type: Type.String(),
  title: Type.String(),
  url: Type.Optional(
    Type.String({ description: "The subject's page; the last detail given up for the budget." }),
  ),
  as_of: Timestamp,
  text: Type.String({
    description: 'Statements about the subject; [n] after a name refers to sources[n-1].',
  }),
  facts: Type.Record(Type.String(), SummaryFact, {
    description: 'Typed key facts; counts count only what the caller may open.',
  }),
}

// …and whether anything was left out, within what budget.
const CUT_AND_BUDGET = {
  truncated: Type.Boolean({
    description: 'Set when anything (links, quotes, facts, statements) was left out to fit.',
  }),
  budget: Budget,
}

/** `GET /v1/resources/:id/summary` (docs/api.md, "Summaries"). */
export const SummaryResponse = Type.Object(
  {
    ...SUBJECT_AND_STATEMENTS,
    sources: Type.Array(SummarySource, { description: 'Source n is the n-th entry.' }),
    links: Type.Array(SummaryLink),
    quotes: Type.Array(SummaryQuote, {
      description: "The quotations of people's text in `text`, in order, with where each is from.",
    }),
    ...CUT_AND_BUDGET,
  },
  { title: 'Summary' },
)

/** A summary as sent. */
export type SummaryBody = Static<typeof SummaryResponse>

/**
 * A summary's compact form (docs/api.md, "Compact summaries"): the same statements and facts,
 * each source once as its id, the links grouped by how they relate, no quotation ranges.
 */
export const CompactSummaryResponse = Type.Object(
  {
    ...SUBJECT_AND_STATEMENTS,
    sources: Type.Array(Type.String(), {
      description:
        'The id of each source: [n] in `text` is the n-th. Its summary, record and page follow ' +
        'from the id, as `format=full` gives them.',
    }),
    links: Type.Record(Type.String(), Type.Array(Type.Integer({ minimum: 1 })), {
      description:
        'Neighbours worth following, by how they relate (project, assignee, overdue…), as ' +
        'source numbers in the order of `format=full`’s links.',
    }),
    ...CUT_AND_BUDGET,
  },
  { title: 'CompactSummary' },
)

/** A summary as sent in its compact form. */
export type CompactSummaryBody = Static<typeof CompactSummaryResponse>

/** The forms a summary is sent in: `full` (every source's title, page and version) or `compact`. */
export const SUMMARY_FORMATS = ['full', 'compact'] as const

/** A form of summary. */
export type SummaryForm = (typeof SUMMARY_FORMATS)[number]

/** The body of a summary of form `F`. */
export type SummaryBodyOf<F extends SummaryForm> = F extends 'compact'
  ? CompactSummaryBody
  : SummaryBody

/** `?format=` of a summary: the full form unless asked. */
export const SummaryFormat = Type.Enum([...SUMMARY_FORMATS], {
  default: 'full',
  description:
    '`compact`: each source once, as its id, for a model to read; `full`: every source with ' +
    'its title, page and version, and where each quotation comes from.',
})

/** What `GET /v1/resources/:id/summary` answers: the form asked for. */
export const SummaryOrCompact = Type.Union([SummaryResponse, CompactSummaryResponse], {
  title: 'SummaryAnswer',
  description: 'A `Summary`, or with `format=compact` a `CompactSummary`.',
})

/** The default `max_tokens`: every demo summary fits whole in it. */
export const DEFAULT_SUMMARY_TOKENS = 2500

/** `?max_tokens=` of a summary. */
export const SummaryQuery = Type.Object(
  {
    max_tokens: Type.Optional(
      Type.Integer({ minimum: 100, maximum: 20_000, default: DEFAULT_SUMMARY_TOKENS }),
    ),
    format: Type.Optional(SummaryFormat),
  },
  { additionalProperties: false },
)

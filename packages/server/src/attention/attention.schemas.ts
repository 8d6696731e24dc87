import Type, { type Static } from 'typebox'
import { Timestamp } from '../api/schemas.ts'
import { DEFAULT_SUMMARY_TOKENS, SummaryFormat } from '../summaries/summary.schemas.ts'
import { DEFAULT_ATTENTION_LIMIT } from './run-attention.ts'

/** `GET /v1/attention`'s query (docs/api.md, "Attention"). */
export const AttentionQuery = Type.Object(
  {
    for: Type.Optional(
      Type.String({
        maxLength: 100,
        description:
          'Whose attention: `me` (the default for a person’s token), `workspace` (the default ' +
          'for an integration’s), or a person, project or team id.',
      }),
    ),
    since: Type.Optional(
      Type.Unsafe<string>({
        ...Timestamp,
        description: 'Changes by anyone but you from this time on; a week before now by default.',
      }),
    ),
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 20,
        default: DEFAULT_ATTENTION_LIMIT,
        description: 'At most this many tasks, objectives and changes each.',
      }),
    ),
    max_tokens: Type.Optional(
      Type.Integer({ minimum: 100, maximum: 20_000, default: DEFAULT_SUMMARY_TOKENS }),
    ),
    format: Type.Optional(SummaryFormat),
  },
  { additionalProperties: false },
)

/** A parsed attention query. */
export type AttentionQueryParams = Static<typeof AttentionQuery>

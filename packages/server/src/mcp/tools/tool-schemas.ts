import Type from 'typebox'
import { TOOL_BUDGET } from '../tool-result.ts'

/** The `max_tokens` argument every tool takes. */
export const MaxTokens = Type.Optional(
  Type.Integer({
    minimum: TOOL_BUDGET.minimum,
    maximum: TOOL_BUDGET.maximum,
    description: `Token budget of the result (o200k). Default ${TOOL_BUDGET.default}.`,
  }),
)

/** A page's `cursor` argument. */
export const Cursor = Type.Optional(
  Type.String({ maxLength: 2000, description: 'next_cursor of the previous call.' }),
)

/** A cited item in a result: what it is and where a person opens it. */
export const Ref = Type.Object({
  id: Type.String(),
  type: Type.String(),
  title: Type.String(),
  url: Type.String(),
})

/** An `Idempotency-Key` for a write tool. */
export const IdempotencyKey = Type.Optional(
  Type.String({
    minLength: 1,
    maxLength: 255,
    description: 'Retrying with the same key returns the first result instead of writing twice.',
  }),
)

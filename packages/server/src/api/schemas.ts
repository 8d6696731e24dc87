import Type, { type TSchema } from 'typebox'
import { PROBLEMS, type ProblemCode } from './problem-catalogue.ts'

/** An RFC 3339 UTC timestamp. */
export const Timestamp = Type.String({
  format: 'date-time',
  examples: ['2026-11-22T10:00:00.000Z'],
})

/** A `YYYY-MM-DD` date. */
export const DateOnly = Type.String({ format: 'date', examples: ['2026-12-01'] })

/** A value or null. */
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()])

/** An id as it appears in paths: any string, so that malformed ids are plain 404s. */
export const IdParams = Type.Object({
  id: Type.String({ description: 'A resource id, such as tsk_…' }),
})

/** `limit` and `cursor` of every list (docs/api.md, "Paging"). */
export const PagingQuery = {
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'Items per page (1–100).' }),
  ),
  cursor: Type.Optional(
    Type.String({ maxLength: 2000, description: 'The next_cursor of the previous page.' }),
  ),
}

/** A page of a list: items and the cursor of the next page (null on the last); `TaskPage`, …. */
export const Page = <T extends TSchema>(item: T) =>
  Type.Object(
    {
      data: Type.Array(item),
      next_cursor: Nullable(
        Type.String({
          description: 'Pass as `cursor` to get the next page; null on the last page.',
        }),
      ),
    },
    { title: `${(item as { title?: string }).title}Page` },
  )

/** Fields every resource record carries (docs/api.md, "Records"). */
export const RecordBase = {
  id: Type.String(),
  url: Type.String({ description: "The resource's page in the product." }),
  api_url: Type.String({ description: 'The resource in this API.' }),
  created_at: Timestamp,
  updated_at: Timestamp,
}

/** The body of every error response (RFC 9457). */
export const ProblemSchema = Type.Object(
  {
    type: Type.String({ description: 'A URL naming the kind of problem.' }),
    title: Type.String(),
    status: Type.Integer(),
    code: Type.Enum(Object.keys(PROBLEMS) as ProblemCode[], {
      description: 'Stable; branch on this (docs/errors.md).',
    }),
    detail: Type.String({ description: 'What went wrong in this request, for people.' }),
    request_id: Type.String(),
    errors: Type.Optional(
      Type.Array(
        Type.Object({
          path: Type.String({
            description: 'A JSON pointer into the body or the query, such as /due.',
          }),
          message: Type.String(),
          candidates: Type.Optional(
            Type.Array(Type.Object({ id: Type.String(), name: Type.String() }), {
              description:
                'A name that names several: those it names that you may see; give one id.',
            }),
          ),
        }),
      ),
    ),
    required_scopes: Type.Optional(Type.Array(Type.String())),
  },
  { title: 'Problem' },
)

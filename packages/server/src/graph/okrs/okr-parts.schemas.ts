import Type from 'typebox'

/** The largest magnitude of a check-in's value: stored as double precision, exact up to here. */
export const LARGEST_CHECKIN_VALUE = 1e15

import { Nullable, RecordBase } from '../../api/schemas.ts'

/** A key result on its own (`GET /v1/resources/kr_…`). */
export const KeyResultRecord = Type.Object(
  {
    ...RecordBase,
    type: Type.Literal('key_result'),
    objective_id: Type.String(),
    title: Type.String(),
    start: Type.Number(),
    target: Type.Number(),
    current: Type.Number(),
    unit: Type.String(),
    progress: Type.Number({ minimum: 0, maximum: 1 }),
  },
  { title: 'KeyResult' },
)

/** The check-in record (docs/api.md, "Records"). */
export const CheckinRecord = Type.Object(
  {
    ...RecordBase,
    type: Type.Literal('checkin'),
    key_result_id: Type.String(),
    objective_id: Type.String(),
    value: Type.Number(),
    confidence: Nullable(Type.Number({ minimum: 0, maximum: 1 })),
    note: Type.String(),
    author_id: Nullable(Type.String()),
  },
  { title: 'Checkin' },
)

/** The body of `POST /v1/okr/checkins` (docs/api.md, "Writes"). */
export const CreateCheckinBody = Type.Object(
  {
    key_result_id: Type.String({ maxLength: 100 }),
    value: Type.Number({
      minimum: -LARGEST_CHECKIN_VALUE,
      maximum: LARGEST_CHECKIN_VALUE,
      description: "The key result's new current value.",
    }),
    confidence: Type.Optional(Nullable(Type.Number({ minimum: 0, maximum: 1 }))),
    note: Type.Optional(Type.String({ maxLength: 2000 })),
  },
  {
    title: 'CreateCheckinRequest',
    examples: [
      { key_result_id: 'kr_01JD3', value: 42, confidence: 0.7, note: 'Two pilots signed.' },
    ],
    additionalProperties: false,
  },
)

/** The answer of `POST /v1/okr/checkins`: the check-in and its key result as it now stands. */
export const CheckinCreated = Type.Object(
  {
    ...CheckinRecord.properties,
    key_result: KeyResultRecord,
    objective_progress: Type.Number({ minimum: 0, maximum: 1 }),
  },
  { title: 'CheckinCreated' },
)

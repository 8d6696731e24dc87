import Type from 'typebox'
import { Nullable, RecordBase } from '../../http/schemas.ts'

/** A key result on its own (`GET /v1/resources/kr_…`). */
export const KeyResultRecord = Type.Object({
  ...RecordBase,
  type: Type.Literal('key_result'),
  objective_id: Type.String(),
  title: Type.String(),
  start: Type.Number(),
  target: Type.Number(),
  current: Type.Number(),
  unit: Type.String(),
  progress: Type.Number({ minimum: 0, maximum: 1 }),
})

/** The check-in record (contract §6). */
export const CheckinRecord = Type.Object({
  ...RecordBase,
  type: Type.Literal('checkin'),
  key_result_id: Type.String(),
  objective_id: Type.String(),
  value: Type.Number(),
  confidence: Nullable(Type.Number({ minimum: 0, maximum: 1 })),
  note: Type.String(),
  author_id: Nullable(Type.String()),
})

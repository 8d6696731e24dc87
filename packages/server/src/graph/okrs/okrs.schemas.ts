import Type from 'typebox'
import { Nullable, PagingQuery, RecordBase, Timestamp } from '../../api/schemas.ts'
import { HEALTH_VERDICTS } from './okr-health.ts'

/** Every status an objective can have. */
export const OBJECTIVE_STATUSES = ['open', 'closed'] as const

/** An objective's health (docs/api.md, "OKR health"), in its record and in search hits. */
export const OkrHealthSchema = Type.Object(
  {
    verdict: Type.Enum([...HEALTH_VERDICTS]),
    expected_progress: Type.Number({
      minimum: 0,
      maximum: 1,
      description: "The share of the session's period that has passed.",
    }),
  },
  {
    title: 'OkrHealth',
    description:
      'Progress against the time elapsed in its session (docs/api.md, "OKR health"); null when the session, such as 2026-Q4, 2026-H1 or 2026, names no period.',
  },
)

/** A key result inside its objective. */
export const KeyResultItem = Type.Object(
  {
    id: Type.String(),
    title: Type.String(),
    start: Type.Number(),
    target: Type.Number(),
    current: Type.Number(),
    unit: Type.String(),
    progress: Type.Number({ minimum: 0, maximum: 1 }),
  },
  { title: 'OkrKeyResult' },
)

/** The OKR (objective) record (docs/api.md, "Records"). */
export const OkrRecord = Type.Object(
  {
    ...RecordBase,
    type: Type.Literal('okr'),
    title: Type.String(),
    session: Type.String(),
    owner_id: Nullable(Type.String()),
    team_id: Nullable(Type.String()),
    project_id: Nullable(Type.String()),
    visibility: Type.Enum(['workspace', 'private']),
    status: Type.Enum([...OBJECTIVE_STATUSES], {
      description: '`closed` once its owner, its team or an admin has closed it.',
    }),
    closed_at: Nullable(Timestamp),
    progress: Type.Number({
      minimum: 0,
      maximum: 1,
      description: 'Mean progress of the key results.',
    }),
    key_results: Type.Array(KeyResultItem),
    confidence: Nullable(
      Type.Number({
        minimum: 0,
        maximum: 1,
        description: 'The confidence of its latest check-in that gave one; null if none did.',
      }),
    ),
    health: Nullable(OkrHealthSchema),
  },
  { title: 'Okr' },
)

/** Filters of `GET /v1/okrs`. */
export const ListOkrsQuery = Type.Object(
  {
    ...PagingQuery,
    session: Type.Optional(
      Type.String({
        maxLength: 50,
        description: 'Only objectives of this session, such as 2026-Q4.',
      }),
    ),
    project_id: Type.Optional(Type.String({ description: 'Only objectives of this project.' })),
    team_id: Type.Optional(Type.String({ description: 'Only objectives owned by this team.' })),
    status: Type.Optional(
      Type.Enum([...OBJECTIVE_STATUSES], { description: 'Only open, or only closed, objectives.' }),
    ),
  },
  { additionalProperties: false },
)

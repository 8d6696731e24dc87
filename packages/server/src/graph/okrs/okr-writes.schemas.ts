import Type from 'typebox'
import { Nullable } from '../../api/schemas.ts'
import { KeyResultRecord, LARGEST_CHECKIN_VALUE } from './okr-parts.schemas.ts'
import { OBJECTIVE_STATUSES } from './okrs.schemas.ts'

/** The most key results `POST /v1/okrs` creates with its objective. */
export const KEY_RESULTS_PER_CREATION = 10

/** The most key results an objective may have: its record and its diffs stay small. */
export const KEY_RESULTS_PER_OBJECTIVE = 25

// A key result's numbers are stored as double precision, exact up to a check-in's bound.
const Measure = (description: string) =>
  Type.Number({ minimum: -LARGEST_CHECKIN_VALUE, maximum: LARGEST_CHECKIN_VALUE, description })

const Reference = (description: string) =>
  Type.Optional(Nullable(Type.String({ maxLength: 100, description })))

const Title = Type.String({ minLength: 1, maxLength: 500 })

const Session = Type.String({
  minLength: 1,
  maxLength: 50,
  description:
    'The period: `2026-Q4`, `2026-H1` or `2026` (kept in that form, whatever the case), against which health is measured; any other name is kept as given and has no health.',
})

const Visibility = (options: { description?: string } = {}) =>
  Type.Enum(['workspace', 'private'], {
    description:
      '`workspace`: every member. `private`: its owner and the members of its team; you must be one of them.',
    ...options,
  })

const Unit = Type.String({ maxLength: 50, description: 'Such as `%` or `users`.' })

// A key result to create: its title, numbers and unit; it starts at `start`.
const NewKeyResultFields = {
  title: Title,
  start: Type.Optional(Measure('Where progress is measured from (default 0).')),
  target: Measure('Where progress is complete; not `start`.'),
  unit: Type.Optional(Unit),
}

/** The body of `POST /v1/okrs/:id/key-results`: a key result to add, after the others. */
export const CreateKeyResultBody = Type.Object(NewKeyResultFields, {
  title: 'CreateKeyResultRequest',
  examples: [{ title: 'Weekly active teams', start: 40, target: 100, unit: 'teams' }],
  additionalProperties: false,
})

// A key result created with its objective, in `POST /v1/okrs`.
const NewKeyResult = Type.Object(NewKeyResultFields, {
  title: 'NewKeyResult',
  additionalProperties: false,
})

/** The body of `POST /v1/okrs` (docs/api.md, "Writes"). */
export const CreateOkrBody = Type.Object(
  {
    title: Title,
    session: Session,
    owner_id: Type.Optional(
      Type.String({
        maxLength: 100,
        description: 'A person you can see (id, name or `me`); you when left out.',
      }),
    ),
    team_id: Reference('The owning team (id or name).'),
    project_id: Reference('A project you can open (id or name).'),
    visibility: Type.Optional(
      Visibility({
        description:
          '`workspace` (the default): every member. `private`: its owner and the members of its team; you must be one of them. Required for an objective in a private project, where `workspace` would show it beyond the project.',
      }),
    ),
    key_results: Type.Optional(
      Type.Array(NewKeyResult, {
        maxItems: KEY_RESULTS_PER_CREATION,
        description: 'Created with the objective, in this order.',
      }),
    ),
  },
  {
    title: 'CreateOkrRequest',
    examples: [
      {
        title: 'Make onboarding effortless',
        session: '2026-Q4',
        team_id: 'Growth',
        key_results: [{ title: 'Activation rate', start: 30, target: 45, unit: '%' }],
      },
    ],
    additionalProperties: false,
  },
)

/** The body of `PATCH /v1/okrs/:id`: the fields to change; `status` closes or reopens it. */
export const UpdateOkrBody = Type.Object(
  {
    title: Type.Optional(Title),
    session: Type.Optional(Session),
    owner_id: Type.Optional(
      Type.String({ maxLength: 100, description: 'A person you can see (id, name or `me`).' }),
    ),
    team_id: Reference('The owning team (id or name), or null for none.'),
    project_id: Reference('A project you can open (id or name), or null for none.'),
    visibility: Type.Optional(Visibility()),
    status: Type.Optional(
      Type.Enum([...OBJECTIVE_STATUSES], {
        description: '`closed` closes the objective; `open` reopens it.',
      }),
    ),
  },
  {
    title: 'UpdateOkrRequest',
    examples: [{ status: 'closed' }, { title: 'Make onboarding delightful', session: '2027-Q1' }],
    additionalProperties: false,
    minProperties: 1,
  },
)

/** The body of `PATCH /v1/key-results/:id`: the fields to change. */
export const UpdateKeyResultBody = Type.Object(
  {
    title: Type.Optional(Title),
    start: Type.Optional(Measure('Where progress is measured from.')),
    target: Type.Optional(Measure('Where progress is complete; not `start`.')),
    unit: Type.Optional(Unit),
  },
  {
    title: 'UpdateKeyResultRequest',
    examples: [{ target: 120 }, { title: 'Weekly active teams (paid)' }],
    additionalProperties: false,
    minProperties: 1,
  },
)

/** A key result as a write leaves it, with its objective's progress. */
export const KeyResultWritten = Type.Object(
  {
    ...KeyResultRecord.properties,
    objective_progress: Type.Number({ minimum: 0, maximum: 1 }),
  },
  { title: 'KeyResultWritten' },
)

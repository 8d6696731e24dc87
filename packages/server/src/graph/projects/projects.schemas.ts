import Type from 'typebox'
import { Nullable, PagingQuery, RecordBase } from '../../api/schemas.ts'

/** Every status a project can have. */
export const PROJECT_STATUSES = ['planned', 'active', 'paused', 'completed', 'archived'] as const

/** The project record (docs/api.md, "Records"). */
export const ProjectRecord = Type.Object(
  {
    ...RecordBase,
    type: Type.Literal('project'),
    name: Type.String(),
    description: Type.String(),
    status: Type.Enum([...PROJECT_STATUSES]),
    visibility: Type.Enum(['workspace', 'private']),
    owner_id: Nullable(Type.String({ description: 'Null when the caller cannot see the owner.' })),
    member_ids: Type.Array(Type.String(), {
      description:
        'People who belong to the project, directly or through a team, that the caller can see.',
    }),
    team_ids: Type.Array(Type.String(), {
      description: 'Teams that belong to the project that the caller can see.',
    }),
  },
  { title: 'Project' },
)

/** Filters of `GET /v1/projects`. */
export const ListProjectsQuery = Type.Object(
  {
    ...PagingQuery,
    status: Type.Optional(
      Type.Array(Type.Enum([...PROJECT_STATUSES]), {
        description: 'Only these statuses (repeat the parameter for several).',
      }),
    ),
  },
  { additionalProperties: false },
)

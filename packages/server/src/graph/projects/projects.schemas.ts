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

/** The body of `POST /v1/projects`: the caller owns the new project and belongs to it. */
export const CreateProjectBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    description: Type.Optional(Type.String({ maxLength: 10_000 })),
    status: Type.Optional(
      Type.Enum([...PROJECT_STATUSES], { default: 'active', description: 'Default `active`.' }),
    ),
    visibility: Type.Optional(
      Type.Enum(['workspace', 'private'], {
        default: 'workspace',
        description:
          '`workspace`: every non-guest member. `private`: only its members (you, until you add others).',
      }),
    ),
  },
  { title: 'CreateProjectRequest', additionalProperties: false },
)

/** The body of `PATCH /v1/projects/:id`: the fields to change, at least one. */
export const UpdateProjectBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    description: Type.Optional(Type.String({ maxLength: 10_000 })),
    status: Type.Optional(Type.Enum([...PROJECT_STATUSES])),
    visibility: Type.Optional(
      Type.Enum(['workspace', 'private'], {
        description: 'Changed only by its owner, and by workspace owners and admins.',
      }),
    ),
    owner_id: Type.Optional(
      Type.String({
        maxLength: 200,
        description:
          'A person who can open the project, by id, name or `me`. Changed only by its owner, and by workspace owners and admins.',
      }),
    ),
  },
  { title: 'UpdateProjectRequest', additionalProperties: false, minProperties: 1 },
)

/** The body of `POST /v1/projects/:id/members`: who joins the project, exactly one of them. */
export const AddProjectMemberBody = Type.Object(
  {
    person_id: Type.Optional(
      Type.String({ maxLength: 200, description: 'A person, by id, name or `me`.' }),
    ),
    team_id: Type.Optional(Type.String({ maxLength: 200, description: 'A team, by id or name.' })),
    integration_id: Type.Optional(Type.String({ maxLength: 200, description: 'An integration.' })),
  },
  {
    title: 'AddProjectMemberRequest',
    additionalProperties: false,
    minProperties: 1,
    maxProperties: 1,
  },
)

/** The path of `DELETE /v1/projects/:id/members/:member_id`. */
export const ProjectMemberParams = Type.Object({
  id: Type.String({ maxLength: 200 }),
  member_id: Type.String({ maxLength: 200 }),
})

/** The object of a `project.member_added` or `project.member_removed` event. */
export const ProjectMembership = Type.Object(
  {
    type: Type.Literal('project_membership'),
    project_id: Type.String(),
    member_id: Nullable(
      Type.String({ description: 'The person, team or integration; null when hidden from you.' }),
    ),
    member_type: Type.Enum(['person', 'team', 'integration']),
  },
  { title: 'ProjectMembership' },
)

import Type from 'typebox'
import { Nullable, PagingQuery, RecordBase } from '../../api/schemas.ts'

/** The person record (docs/api.md, "Records"). */
export const PersonRecord = Type.Object(
  {
    ...RecordBase,
    type: Type.Literal('person'),
    name: Type.String(),
    email: Nullable(
      Type.String({ description: 'Shown to members only; null for guests and integrations.' }),
    ),
    role: Type.Enum(['owner', 'admin', 'member', 'guest']),
    deactivated: Type.Boolean({
      description:
        'The person left the workspace (`POST /v1/people/{id}/deactivate`): they cannot sign in and hold no working credential; what they wrote stays theirs.',
    }),
    teams: Type.Array(Type.String(), {
      description: 'Teams of the person that the caller can see.',
    }),
  },
  { title: 'Person' },
)

/** The team record (docs/api.md, "Records"). */
export const TeamRecord = Type.Object(
  {
    ...RecordBase,
    type: Type.Literal('team'),
    name: Type.String(),
    member_ids: Type.Array(Type.String(), { description: 'Members the caller can see.' }),
  },
  { title: 'Team' },
)

/** Filters of `GET /v1/people`. */
export const ListPeopleQuery = Type.Object(
  {
    ...PagingQuery,
    team_id: Type.Optional(Type.String({ description: 'Only members of this team.' })),
  },
  { additionalProperties: false },
)

/** Filters of `GET /v1/teams`. */
export const ListTeamsQuery = Type.Object({ ...PagingQuery }, { additionalProperties: false })

import Type from 'typebox'

/** The body of `POST /v1/teams`. */
export const CreateTeamBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    member_ids: Type.Optional(
      Type.Array(Type.String({ maxLength: 200 }), {
        maxItems: 100,
        uniqueItems: true,
        description: 'Its first members: people by id, name or `me`.',
      }),
    ),
  },
  { title: 'CreateTeamRequest', additionalProperties: false },
)

/** The body of `PATCH /v1/teams/:id`. */
export const UpdateTeamBody = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: 200 }) },
  { title: 'UpdateTeamRequest', additionalProperties: false },
)

/** The body of `POST /v1/teams/:id/members`. */
export const AddTeamMemberBody = Type.Object(
  { person_id: Type.String({ maxLength: 200, description: 'A person, by id, name or `me`.' }) },
  { title: 'AddTeamMemberRequest', additionalProperties: false },
)

/** The path of `DELETE /v1/teams/:id/members/:person_id`. */
export const TeamMemberParams = Type.Object({
  id: Type.String({ maxLength: 200 }),
  person_id: Type.String({ maxLength: 200 }),
})

/** The object of a `team.member_added` or `team.member_removed` event. */
export const TeamMembership = Type.Object(
  {
    type: Type.Literal('team_membership'),
    team_id: Type.String(),
    person_id: Type.Union([Type.String(), Type.Null()], {
      description: 'Null when the person is hidden from the endpoint owner.',
    }),
  },
  { title: 'TeamMembership' },
)

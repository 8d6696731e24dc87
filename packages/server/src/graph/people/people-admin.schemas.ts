import Type from 'typebox'

/** The body of `PATCH /v1/people/:id`. */
export const UpdatePersonBody = Type.Object(
  {
    role: Type.Enum(['owner', 'admin', 'member', 'guest'], {
      description: 'Only an owner grants or takes away `owner` and `admin`.',
    }),
  },
  { additionalProperties: false, title: 'UpdatePersonRequest' },
)

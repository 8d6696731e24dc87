import Type from 'typebox'
import { ACCESS_REASON_KINDS } from '../../access/access-reason.ts'

/** `?person_id=` of `GET /v1/resources/:id/access`. */
export const AccessQuery = Type.Object(
  {
    person_id: Type.Optional(
      Type.String({
        description:
          'Ask about this person instead of the caller (owners and admins only, for a resource ' +
          'they may open themselves).',
      }),
    ),
  },
  { additionalProperties: false },
)

/** One reason a resource is open (docs/permissions.md, "Why a resource is open"). */
export const AccessReasonSchema = Type.Object(
  {
    kind: Type.Enum([...ACCESS_REASON_KINDS], {
      description: 'Which rule opens it: workspace_member, project_member, team_member, …',
    }),
    via_id: Type.Optional(
      Type.String({
        description: 'The project, team or resource the reason comes through, when there is one.',
      }),
    ),
  },
  { title: 'AccessReason' },
)

/** Why a resource is open to a person: every reason, empty when it is not open to them. */
export const AccessRecord = Type.Object(
  {
    resource_id: Type.String(),
    person_id: Type.String({
      description:
        'Whom the reasons are for: the caller (a person or an integration) or person_id.',
    }),
    reasons: Type.Array(AccessReasonSchema),
  },
  { title: 'Access' },
)

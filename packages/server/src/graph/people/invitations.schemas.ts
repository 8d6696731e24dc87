import Type from 'typebox'
import { Nullable, PagingQuery, Timestamp } from '../../api/schemas.ts'

/** The roles an invitation may give: `owner` is granted to people already in the workspace. */
export const InvitedRole = Type.Enum(['admin', 'member', 'guest'], {
  description: 'Only an owner may invite an admin.',
})

/** An invitation as the API shows it (never its link, which is shown once). */
export const InvitationRecord = Type.Object(
  {
    id: Type.String({ description: 'inv_…' }),
    type: Type.Literal('invitation'),
    email: Type.String(),
    name: Nullable(
      Type.String({ description: 'The name the join page offers, if one was given.' }),
    ),
    role: InvitedRole,
    status: Type.Enum(['pending', 'accepted', 'revoked', 'expired']),
    inviter_id: Type.String({ description: 'The owner or admin who invited (usr_…).' }),
    person_id: Nullable(Type.String({ description: 'The person it made, once accepted.' })),
    created_at: Timestamp,
    expires_at: Timestamp,
    accepted_at: Nullable(Timestamp),
    revoked_at: Nullable(Timestamp),
  },
  { title: 'Invitation' },
)

/** The body of `POST /v1/invitations`. */
export const CreateInvitationBody = Type.Object(
  {
    email: Type.String({ format: 'email', maxLength: 320 }),
    role: InvitedRole,
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  },
  { additionalProperties: false, title: 'CreateInvitationRequest' },
)

/** What `POST /v1/invitations` answers: the invitation, its link once, and what became of the email. */
export const CreatedInvitation = Type.Object(
  {
    invitation: InvitationRecord,
    url: Nullable(
      Type.String({
        description:
          'The one-time link to join, shown only in this answer: null on a replay of the Idempotency-Key and in a dry run. It is not stored; a lost link is revoked and invited again.',
      }),
    ),
    email: Nullable(
      Type.Enum(['sent', 'failed', 'not_configured'], {
        description:
          'Whether the link was emailed to the invitee (`not_configured`: no SMTP server is set, pass the link on yourself). Null on a replay and in a dry run.',
      }),
    ),
  },
  { title: 'CreatedInvitation' },
)

/** Query of `GET /v1/invitations`. */
export const ListInvitationsQuery = Type.Object({ ...PagingQuery }, { additionalProperties: false })

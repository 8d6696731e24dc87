import Type from 'typebox'
import { Nullable, PagingQuery, Timestamp } from '../api/schemas.ts'

/** One app's authorization to act for a person: the remembered consent and its tokens. */
export const OAuthGrantRecord = Type.Object(
  {
    id: Type.String({ description: 'grt_…; audit entries of the app name it as their token id.' }),
    client_id: Type.String(),
    client_name: Type.String(),
    person_id: Type.String({ description: 'The person the app acts as.' }),
    scopes: Type.Array(Type.String(), { description: 'What the person approved.' }),
    status: Type.Enum(['active', 'revoked']),
    created_at: Timestamp,
    last_used_at: Nullable(Timestamp),
    expires_at: Timestamp,
    project_ids: Nullable(
      Type.Array(Type.String(), {
        description:
          'The projects the person picked at consent: every token of the grant opens only them. ' +
          'Null: not fenced.',
      }),
    ),
  },
  { title: 'OAuthGrant' },
)

/** `GET /v1/oauth-grants`. */
export const ListOAuthGrantsQuery = Type.Object(
  { ...PagingQuery, client_id: Type.Optional(Type.String({ maxLength: 200 })) },
  { additionalProperties: false },
)

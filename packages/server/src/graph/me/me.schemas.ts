import Type from 'typebox'
import { Nullable } from '../../api/schemas.ts'

/** `GET /v1/me`: who the token acts as, and what it may do. */
export const MeRecord = Type.Object(
  {
    type: Type.Literal('me'),
    actor: Type.Object(
      {
        id: Type.String({ description: 'Use it wherever a person id is asked, or say `me`.' }),
        type: Type.Enum(['person', 'integration']),
        name: Type.String(),
        role: Nullable(
          Type.Enum(['owner', 'admin', 'member', 'guest'], {
            description: "The person's role in the workspace; null for an integration.",
          }),
        ),
        url: Nullable(Type.String({ description: "The person's page; null for an integration." })),
      },
      { description: 'Who the token acts as.' },
    ),
    workspace: Type.Object({ id: Type.String(), url: Type.String() }),
    credential: Type.Object(
      {
        id: Type.String({
          description: "The key's or token's id; for an OAuth access token, its grant's.",
        }),
        type: Type.Enum(['api_key', 'workspace_token', 'oauth']),
        client_id: Nullable(
          Type.String({ description: 'The OAuth app acting for the person; null otherwise.' }),
        ),
        scopes: Type.Array(Type.String(), { description: 'What it may do, sorted.' }),
        project_ids: Nullable(
          Type.Array(Type.String(), {
            description: 'The projects it is fenced to that you can still open. Null: not fenced.',
          }),
        ),
        expires_at: Nullable(
          Type.String({
            format: 'date-time',
            description:
              'The end it was made with; null when it has none of its own (an OAuth access ' +
              'token lasts an hour, and no longer than its grant).',
          }),
        ),
      },
      { description: 'The credential of this request.' },
    ),
  },
  { title: 'Me' },
)

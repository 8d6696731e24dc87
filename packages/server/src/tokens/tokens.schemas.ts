import Type from 'typebox'
import { Nullable, PagingQuery, Timestamp } from '../api/schemas.ts'
import { SCOPE_ALIASES, SCOPES } from '../catalogue/scopes.ts'

// Every name a credential may be given: the catalogue's scopes and their older aliases.
const GRANTABLE_SCOPE_NAMES = [...Object.keys(SCOPES), ...Object.keys(SCOPE_ALIASES)]

/** An API key or workspace token, without its secret. */
export const TokenRecord = Type.Object(
  {
    id: Type.String(),
    type: Type.Enum(['api_key', 'workspace_token']),
    name: Type.String(),
    owner_id: Type.String({
      description: 'The person (API key) or integration (workspace token) it acts as.',
    }),
    scopes: Type.Array(Type.String()),
    last4: Type.String({
      description: 'The last four characters of the secret, to tell keys apart.',
    }),
    status: Type.Enum(['active', 'expiring', 'expired', 'revoked']),
    created_at: Timestamp,
    last_used_at: Nullable(Timestamp),
    expires_at: Nullable(Timestamp),
    revoked_at: Nullable(Timestamp),
    project_ids: Nullable(
      Type.Array(Type.String(), {
        description:
          'The projects it is fenced to: it opens only them and what belongs to them. ' +
          'Null: not fenced.',
      }),
    ),
  },
  { title: 'Token' },
)

/** A newly issued key: the record and its secret, shown this once. */
export const IssuedKey = Type.Object(
  {
    ...TokenRecord.properties,
    token: Type.String({
      description: 'The secret. It is shown only in this response; only a hash is stored.',
    }),
  },
  { title: 'IssuedApiKey' },
)

/** `POST /v1/api-keys`. */
export const CreateApiKeyBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    scopes: Type.Array(Type.Enum(GRANTABLE_SCOPE_NAMES), {
      minItems: 1,
      maxItems: 50,
      description: 'At most the scopes of the token making the request.',
    }),
    project_ids: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
        minItems: 1,
        maxItems: 100,
        uniqueItems: true,
        description:
          'Fence the key to these projects (each one the token making the request can open). ' +
          'Left out: the fence of the token making the request, if it has one.',
      }),
    ),
    expires_at: Type.Optional(
      Type.String({
        format: 'date-time',
        description:
          'When the key stops working: in the future, at most 365 days ahead, and never later ' +
          "than the token making the request. Left out: that token's end, if it has one.",
      }),
    ),
  },
  { title: 'CreateApiKeyRequest', additionalProperties: false },
)

/** How long an old key keeps working after a rotation, when no overlap is given. */
export const DEFAULT_OVERLAP_SECONDS = 86_400

/** The longest overlap a rotation may give the old key. */
export const MAX_OVERLAP_SECONDS = 604_800

/** `POST /v1/api-keys/:id/rotate`. */
export const RotateApiKeyBody = Type.Object(
  {
    overlap_seconds: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: MAX_OVERLAP_SECONDS,
        default: DEFAULT_OVERLAP_SECONDS,
        description: 'How long the old key keeps working (0–7 days).',
      }),
    ),
  },
  { title: 'RotateApiKeyRequest', additionalProperties: false },
)

/** The answer to a rotation: the new key, and when the old one stops working. */
export const RotatedKey = Type.Object(
  { ...IssuedKey.properties, previous_expires_at: Timestamp },
  { title: 'RotatedApiKey' },
)

/** Filters of `GET /v1/tokens`. */
export const ListTokensQuery = Type.Object(
  {
    ...PagingQuery,
    type: Type.Optional(Type.Enum(['api_key', 'workspace_token'])),
    owner_id: Type.Optional(Type.String()),
    status: Type.Optional(Type.Array(Type.Enum(['active', 'expiring', 'expired', 'revoked']))),
  },
  { additionalProperties: false },
)

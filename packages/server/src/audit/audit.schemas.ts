import Type from 'typebox'
import { Nullable, PagingQuery, Timestamp } from '../api/schemas.ts'
import { AUDIT_ACTIONS, AUDIT_TRANSPORTS } from '../db/tables/audit.table.ts'

/** One audit entry. */
export const AuditRecord = Type.Object(
  {
    id: Type.String(),
    action: Type.Enum([...AUDIT_ACTIONS]),
    actor_id: Type.String({ description: 'The person or integration that acted.' }),
    token_id: Nullable(Type.String()),
    token_kind: Nullable(Type.String({ description: 'api_key, workspace_token or oauth.' })),
    client_id: Nullable(
      Type.String({ description: 'The OAuth client, when the token is an OAuth token.' }),
    ),
    resource_id: Nullable(
      Type.String({
        description: 'Null when the entry is redacted: the reader may not open it now.',
      }),
    ),
    resource_type: Nullable(Type.String()),
    redacted: Type.Boolean({
      description:
        'True when the resource is one the reader may not open now: the entry keeps who, what, when and the names of the changed fields, and withholds the id and every value.',
    }),
    changed_fields: Type.Array(Type.String(), {
      description: 'The names of the fields the change touched.',
    }),
    diff: Nullable(
      Type.Record(Type.String(), Type.Object({ from: Type.Unknown(), to: Type.Unknown() }), {
        description:
          'Each changed field, before and after; null when redacted. Ids of neighbours the reader may not open are left out.',
      }),
    ),
    request_id: Nullable(Type.String()),
    ip: Nullable(Type.String()),
    user_agent: Nullable(Type.String()),
    via: Type.Enum([...AUDIT_TRANSPORTS], {
      description:
        'The interface the change came through: the REST API, the MCP server, the dashboard, or the command line (`workgraph init`).',
    }),
    created_at: Timestamp,
  },
  { title: 'AuditEntry' },
)

/** Filters of `GET /v1/audit`. */
export const ListAuditQuery = Type.Object(
  {
    ...PagingQuery,
    token_id: Type.Optional(Type.String()),
    actor_id: Type.Optional(Type.String()),
    resource_id: Type.Optional(Type.String()),
    action: Type.Optional(
      Type.Enum([...AUDIT_ACTIONS], { description: 'Only entries of this action.' }),
    ),
    since: Type.Optional(
      Type.String({ format: 'date-time', description: 'Entries at or after this time.' }),
    ),
    until: Type.Optional(
      Type.String({ format: 'date-time', description: 'Entries before this time.' }),
    ),
  },
  { additionalProperties: false },
)

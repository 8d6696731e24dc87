import type { components, operations } from './generated/openapi.ts'

type Schemas = components['schemas']

/** The query parameters of an operation, without paging (lists page by themselves). */
export type ListParams<Op extends keyof operations> = Omit<
  NonNullable<operations[Op]['parameters']['query']>,
  'cursor'
>

/** The query parameters of an operation that is not a list. */
export type QueryOf<Op extends keyof operations> = NonNullable<
  operations[Op]['parameters']['query']
>

/** The form body of an operation that takes `application/x-www-form-urlencoded` (OAuth's). */
export type FormOf<Op extends keyof operations> =
  NonNullable<operations[Op]['requestBody']> extends {
    content: { 'application/x-www-form-urlencoded': infer B }
  }
    ? B
    : never

// The JSON of a response, or never when it has none.
type JsonOf<R> = R extends { content: { 'application/json': infer B } } ? B : never

/** The JSON body of an operation's successful (2xx) answer. */
export type ResponseOf<Op extends keyof operations> = {
  [S in keyof operations[Op]['responses']]: S extends 200 | 201 | 202
    ? JsonOf<operations[Op]['responses'][S]>
    : never
}[keyof operations[Op]['responses']]

/** The JSON body of an operation's request. */
export type BodyOf<Op extends keyof operations> =
  NonNullable<operations[Op]['requestBody']> extends { content: { 'application/json': infer B } }
    ? B
    : never

/** A task record. */
export type Task = Schemas['Task']
/** A task's status. */
export type TaskStatus = Task['status']
/** A project record. */
export type Project = Schemas['Project']
/** A canvas record (its metadata). */
export type Canvas = Schemas['Canvas']
/** A comment record. */
export type Comment = Schemas['Comment']
/** An objective with its key results. */
export type Okr = Schemas['Okr']
/** A check-in, with its key result and the objective's progress as they now stand. */
export type CheckinCreated = Schemas['CheckinCreated']
/** A key result as a write leaves it, with its objective's progress. */
export type KeyResultWritten = Schemas['KeyResultWritten']
/** A person of the directory. */
export type Person = Schemas['Person']
/** An invitation to the workspace (never its link). */
export type Invitation = Schemas['Invitation']
/** A new invitation, with its one-time link and what became of the email. */
export type CreatedInvitation = Schemas['CreatedInvitation']
/** A team of the directory. */
export type Team = Schemas['Team']
/** The workspace record. */
export type Workspace = Schemas['Workspace']
/** Who the token acts as, and what it may do (`GET /v1/me`). */
export type Me = Schemas['Me']
/** An entry of the activity stream. */
export type ActivityEntry = Schemas['ActivityEntry']
/** One change of the change feed. */
export type Change = Schemas['Change']
/** A page of the change feed; its cursor is never null. */
export type ChangePage = Schemas['ChangePage']
/** Any record, told apart by `type`. */
export type AnyRecord = Schemas['AnyRecord']
/** Why a resource is open to a person: every reason. */
export type Access = Schemas['Access']
/** One reason a resource is open, such as `{ kind: 'team_member', via_id: 'team_…' }`. */
export type AccessReason = Schemas['AccessReason']
/** A neighbour of a resource. */
export type Link = Schemas['Link']
/** The answer of a search: hits, what the query became, and the budget used. */
export type SearchResult = Schemas['SearchResult']
/** One search hit. */
export type SearchHit = Schemas['SearchHit']
/** A cited summary of a resource, sized to a token budget. */
export type Summary = Schemas['Summary']
/** A summary's compact form (`format: 'compact'`): each source once, as its id. */
export type CompactSummary = Schemas['CompactSummary']
/** A webhook endpoint. */
export type WebhookEndpoint = Schemas['WebhookEndpoint']
/** A webhook endpoint as created: with its secret, shown only then. */
export type CreatedWebhookEndpoint = Schemas['CreatedWebhookEndpoint']
/** A delivery of an event to an endpoint, with its attempts. */
export type WebhookDelivery = Schemas['WebhookDelivery']
/** A delivery with the exact requests sent and the answers received. */
export type WebhookDeliveryDetail = Schemas['WebhookDeliveryDetail']
/** A new signing secret and when the previous one stops being used. */
export type RotatedWebhookSecret = Schemas['RotatedWebhookSecret']

/** An API key or workspace token, as listed (never its secret). */
export type Token = Schemas['Token']
/** A new API key: its secret `token` is shown only in this answer. */
export type IssuedApiKey = Schemas['IssuedApiKey']
/** A rotated API key: the new secret, and until when the old one keeps working. */
export type RotatedApiKey = Schemas['RotatedApiKey']
/** An entry of the audit log. */
export type AuditEntry = Schemas['AuditEntry']
/** An OAuth grant: an app's access for a person, with its scopes. */
export type OAuthGrant = Schemas['OAuthGrant']
/** The tokens an OAuth token exchange or refresh answers. */
export type OAuthTokenResponse = Schemas['OAuthTokenResponse']
/** An OAuth metadata document (RFC 8414, RFC 9728) or JWK set, with the members its RFC names. */
export type OAuthMetadata = Schemas['OAuthMetadata']
/** The answer of the liveness and readiness checks. */
export type HealthStatus = Schemas['HealthStatus']
/** A webhook endpoint as deleted. */
export type DeletedWebhookEndpoint = Schemas['DeletedWebhookEndpoint']
/** The deliveries a recovery queued again. */
export type RecoveredDeliveries = Schemas['RecoveredDeliveries']

/** Every event a webhook endpoint can receive, told apart by `type`. */
export type WorkgraphEvent =
  | Schemas['TaskCreatedEvent']
  | Schemas['TaskCompletedEvent']
  | Schemas['CommentCreatedEvent']
  | Schemas['CanvasUpdatedEvent']
  | Schemas['OkrCreatedEvent']
  | Schemas['OkrUpdatedEvent']
  | Schemas['OkrCheckinEvent']
  | Schemas['WebhookTestEvent']

/** A webhook event a dry run would emit: `type` and `data` as docs/webhooks.md describes them. */
export interface DryRunEvent {
  type: string
  data: Record<string, unknown>
}

/**
 * What a write answers with `dryRun: true` (docs/api.md, "Dry runs"): the record it would answer,
 * whose ids not yet assigned (and any secret) are null, and the activity and events it would
 * record. Nothing was written.
 */
export interface DryRun<T> {
  dry_run: true
  result: { [K in keyof T]: T[K] | null }
  activity: ActivityEntry[]
  events: DryRunEvent[]
}

/**
 * @workgraph/sdk: the Workgraph API from TypeScript, on any runtime with `fetch` (Node 18+, Deno,
 * Bun, browsers). See the README for a tour.
 *
 * @packageDocumentation
 */
export type * from './api-types.ts'
export { type ClientMethod, COVERAGE, type CoverageEntry } from './coverage.ts'
export {
  AuthenticationError,
  ConflictError,
  ConnectionError,
  type ErrorBody,
  type ErrorCode,
  NotFoundError,
  type OAuthErrorCode,
  PermissionError,
  type ProblemCode,
  type ProblemDetail,
  RateLimitError,
  ServiceUnavailableError,
  ValidationError,
  WorkgraphError,
  type WorkgraphErrorInit,
} from './errors.ts'
export type { components, operations, paths, webhooks } from './generated/openapi.ts'
export { OPERATIONS, type OperationId } from './generated/operations.ts'
export { type Page, PagedList, type PageLoader } from './pages.ts'
export { createPkcePair, type PkcePair, pkceChallenge, randomState } from './pkce.ts'
export type { Activity } from './resources/activity.ts'
export type { ApiKeys } from './resources/api-keys.ts'
export type { Audit } from './resources/audit.ts'
export type { Canvases } from './resources/canvases.ts'
export type {
  ChangeFollower,
  Changes,
  FollowChangesParams,
  ListChangesParams,
} from './resources/changes.ts'
export type { Comments } from './resources/comments.ts'
export type { Health } from './resources/health.ts'
export type { MeResource } from './resources/me.ts'
export type {
  AuthorizeParams,
  CodeExchange,
  OAuth,
  OAuthClientOptions,
  TokenRefresh,
} from './resources/oauth.ts'
export type { OAuthGrants } from './resources/oauth-grants.ts'
export type { Okrs } from './resources/okrs.ts'
export type { People } from './resources/people.ts'
export type { Projects } from './resources/projects.ts'
export type { RecordOf } from './resources/record.ts'
export type { Resources } from './resources/resources.ts'
export type { Tasks } from './resources/tasks.ts'
export type { Teams } from './resources/teams.ts'
export type { Tokens } from './resources/tokens.ts'
export type { Webhooks } from './resources/webhooks.ts'
export type { WorkspaceResource } from './resources/workspace.ts'
export type { RateLimit, ResponseMeta, WithResponse } from './response-meta.ts'
export type {
  CallAuth,
  HttpMethod,
  QueryValue,
  RequestOptions,
  TokenSource,
  WriteAnswer,
  WriteOptions,
} from './transport.ts'
export {
  type IncomingHeaders,
  type VerifyOptions,
  verifyWebhook,
  type WebhookRefusal,
  WebhookVerificationError,
} from './verify-webhook.ts'
export { type RawRequest, Workgraph, type WorkgraphOptions } from './workgraph.ts'

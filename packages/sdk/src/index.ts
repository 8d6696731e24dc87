/**
 * @workgraph/sdk: the Workgraph API from TypeScript, on any runtime with `fetch` (Node 18+, Deno,
 * Bun, browsers). See the README for a tour.
 */
export type * from './api-types.ts'
export {
  type ProblemCode,
  type ProblemDetail,
  WorkgraphConnectionError,
  WorkgraphError,
} from './errors.ts'
export type { components, operations, paths, webhooks } from './generated/openapi.ts'
export { type Page, PagedList } from './pages.ts'
export type {
  ChangeFollower,
  FollowChangesOptions,
  ListChangesParams,
} from './resources/changes.ts'
export type { AccessOptions, SummaryOptions } from './resources/resources.ts'
export type { ListTasksParams } from './resources/tasks.ts'
export type { RequestOptions, TokenSource, WriteAnswer, WriteOptions } from './transport.ts'
export {
  type IncomingHeaders,
  type VerifyOptions,
  verifyWebhook,
  type WebhookRefusal,
  WebhookVerificationError,
} from './verify-webhook.ts'
export { Workgraph, type WorkgraphOptions } from './workgraph.ts'

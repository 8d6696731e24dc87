import type { OperationId } from './generated/operations.ts'
import type { Workgraph } from './workgraph.ts'

// The names of an object's methods.
type MethodsOf<T> = {
  [K in keyof T & string]: T[K] extends (...args: never[]) => unknown ? K : never
}[keyof T & string]

/** A method of the client as its path from the client: `tasks.list` is `wg.tasks.list`. */
export type ClientMethod = {
  [K in keyof Workgraph & string]: Workgraph[K] extends (...args: never[]) => unknown
    ? K
    : `${K}.${MethodsOf<Workgraph[K]>}`
}[keyof Workgraph & string]

/** Where an operation of the API lives in the SDK. */
export type CoverageEntry =
  /** An API call, made by this method of the client. */
  | { method: ClientMethod }
  /** A page a person's browser opens, not an API call: the SDK builds its URL with `method`. */
  | { browserPage: true; method: ClientMethod }

/**
 * Every operation of the API's OpenAPI document (by operationId) and the SDK method that calls
 * it. It must name each operation of src/generated/operations.ts, which is generated from the
 * document: an operation without a method is a compile error here, and a test calls each one.
 */
export const COVERAGE = {
  getLiveness: { method: 'health.liveness' },
  getReadiness: { method: 'health.readiness' },
  getWorkspace: { method: 'workspace.get' },
  getMe: { method: 'me.get' },
  listPeople: { method: 'people.list' },
  getPerson: { method: 'people.get' },
  updatePerson: { method: 'people.update' },
  deactivatePerson: { method: 'people.deactivate' },
  reactivatePerson: { method: 'people.reactivate' },
  listInvitations: { method: 'invitations.list' },
  createInvitation: { method: 'invitations.create' },
  revokeInvitation: { method: 'invitations.revoke' },
  listTeams: { method: 'teams.list' },
  createTeam: { method: 'teams.create' },
  updateTeam: { method: 'teams.update' },
  addTeamMember: { method: 'teams.addMember' },
  removeTeamMember: { method: 'teams.removeMember' },
  listProjects: { method: 'projects.list' },
  createProject: { method: 'projects.create' },
  updateProject: { method: 'projects.update' },
  addProjectMember: { method: 'projects.addMember' },
  removeProjectMember: { method: 'projects.removeMember' },
  listCanvases: { method: 'canvases.list' },
  createCanvas: { method: 'canvases.create' },
  updateCanvas: { method: 'canvases.update' },
  listTasks: { method: 'tasks.list' },
  createTask: { method: 'tasks.create' },
  updateTask: { method: 'tasks.update' },
  completeTask: { method: 'tasks.complete' },
  listOkrs: { method: 'okrs.list' },
  createCheckin: { method: 'okrs.checkin' },
  createOkr: { method: 'okrs.create' },
  updateOkr: { method: 'okrs.update' },
  createKeyResult: { method: 'okrs.addKeyResult' },
  updateKeyResult: { method: 'okrs.updateKeyResult' },
  createComment: { method: 'comments.create' },
  listActivity: { method: 'activity.list' },
  listProjectActivity: { method: 'projects.activity' },
  listChanges: { method: 'changes.list' },
  getResource: { method: 'resources.get' },
  listResourceLinks: { method: 'resources.links' },
  listResourceComments: { method: 'resources.comments' },
  getResourceAccess: { method: 'resources.access' },
  search: { method: 'search' },
  getResourceSummary: { method: 'resources.summary' },
  getAttention: { method: 'attention' },
  listTokens: { method: 'tokens.list' },
  createApiKey: { method: 'apiKeys.create' },
  rotateApiKey: { method: 'apiKeys.rotate' },
  revokeToken: { method: 'tokens.revoke' },
  listAuditEntries: { method: 'audit.list' },
  createWebhook: { method: 'webhooks.create' },
  listWebhooks: { method: 'webhooks.list' },
  getWebhook: { method: 'webhooks.get' },
  updateWebhook: { method: 'webhooks.update' },
  deleteWebhook: { method: 'webhooks.delete' },
  rotateWebhookSecret: { method: 'webhooks.rotateSecret' },
  listWebhookDeliveries: { method: 'webhooks.deliveries' },
  getWebhookDelivery: { method: 'webhooks.delivery' },
  replayWebhookDelivery: { method: 'webhooks.replay' },
  sendWebhookTestEvent: { method: 'webhooks.test' },
  recoverWebhookDeliveries: { method: 'webhooks.recover' },
  listOAuthGrants: { method: 'oauthGrants.list' },
  revokeOAuthGrant: { method: 'oauthGrants.revoke' },
  authorize: { browserPage: true, method: 'oauth.authorizeUrl' },
  exchangeToken: { method: 'oauth.exchangeCode' },
  revokeOAuthToken: { method: 'oauth.revoke' },
  getJwks: { method: 'oauth.jwks' },
  getAuthorizationServerMetadata: { method: 'oauth.metadata' },
  getProtectedResourceMetadata: { method: 'oauth.protectedResourceMetadata' },
} as const satisfies Record<OperationId, CoverageEntry>

import type { Kysely, Transaction } from 'kysely'
import type { ActivityTable, ChangePositionsTable } from './tables/activity.table.ts'
import type { AuditLogTable } from './tables/audit.table.ts'
import type { CanvasesTable, CanvasLinksTable, CanvasSharesTable } from './tables/canvas.table.ts'
import type { CommentsTable } from './tables/comment.table.ts'
import type { PasswordLinksTable, SetupTokensTable } from './tables/first-run.table.ts'
import type { InvitationsTable } from './tables/invitation.table.ts'
import type { CheckinsTable, KeyResultsTable, ObjectivesTable } from './tables/okr.table.ts'
import type { ProjectMembersTable, ProjectsTable } from './tables/project.table.ts'
import type { ResourceIndexTable, TitleWordsTable } from './tables/resource-index.table.ts'
import type { TasksTable } from './tables/task.table.ts'
import type { OAuthArtifactsTable, OAuthClientsTable, TokensTable } from './tables/token.table.ts'
import type { WebSessionsTable } from './tables/web-session.table.ts'
import type {
  WebhookAttemptsTable,
  WebhookDeliveriesTable,
  WebhookEndpointsTable,
} from './tables/webhook.table.ts'
import type {
  IntegrationsTable,
  PeopleTable,
  TeamMembersTable,
  TeamsTable,
  WorkspacesTable,
} from './tables/workspace.table.ts'
import type {
  EventsTable,
  IdempotencyKeysTable,
  RateLimitWindowsTable,
} from './tables/write.table.ts'

/** Every table Kysely may query, by name. */
export interface Database {
  workspaces: WorkspacesTable
  people: PeopleTable
  invitations: InvitationsTable
  teams: TeamsTable
  team_members: TeamMembersTable
  integrations: IntegrationsTable
  projects: ProjectsTable
  project_members: ProjectMembersTable
  canvases: CanvasesTable
  canvas_shares: CanvasSharesTable
  canvas_links: CanvasLinksTable
  tasks: TasksTable
  objectives: ObjectivesTable
  key_results: KeyResultsTable
  checkins: CheckinsTable
  comments: CommentsTable
  activity: ActivityTable
  change_positions: ChangePositionsTable
  resource_index: ResourceIndexTable
  title_words: TitleWordsTable
  tokens: TokensTable
  oauth_clients: OAuthClientsTable
  oauth_artifacts: OAuthArtifactsTable
  audit_log: AuditLogTable
  events: EventsTable
  idempotency_keys: IdempotencyKeysTable
  rate_limit_windows: RateLimitWindowsTable
  webhook_endpoints: WebhookEndpointsTable
  webhook_deliveries: WebhookDeliveriesTable
  webhook_attempts: WebhookAttemptsTable
  web_sessions: WebSessionsTable
  setup_tokens: SetupTokensTable
  password_links: PasswordLinksTable
}

/** The database, or a transaction on it: every query function takes this first. */
export type Db = Kysely<Database> | Transaction<Database>

import type { Kysely } from 'kysely'
import type { Bundle } from '../../src/bundle/bundle.schema.ts'
import {
  type ImportOptions,
  type ImportResult,
  importBundle,
} from '../../src/bundle/import-bundle.ts'
import type { Database } from '../../src/db/database.ts'

/** Every scope, for tokens that should never hit a 403 in tests. */
export const ALL_READ_SCOPES = [
  'workspace:read',
  'people:read',
  'project:read',
  'canvas:read',
  'task:read',
  'okr:read',
  'comment:read',
  'activity:read',
]

/**
 * A small workspace with every kind of principal and visibility: an owner, an admin, two members,
 * a guest, an integration; a public and a private project; tasks, a canvas, an OKR, comments.
 * `alice` (member of everything), `bob` (member, not in the private project), `gus` (guest,
 * member of the public project only), `bot` (integration, member of the private project).
 */
export function smallBundle(overrides: Partial<Bundle> = {}): Bundle {
  return {
    format: 'workgraph.bundle/v1',
    workspace: { key: 'ws', name: 'Test workspace', plan: 'business' },
    people: [
      { key: 'olive', name: 'Olive Owner', email: 'olive@example.test', role: 'owner' },
      { key: 'adam', name: 'Adam Admin', email: 'adam@example.test', role: 'admin' },
      { key: 'alice', name: 'Alice Member', email: 'alice@example.test', role: 'member' },
      { key: 'bob', name: 'Bob Member', email: 'bob@example.test', role: 'member' },
      { key: 'gus', name: 'Gus Guest', email: 'gus@partner.test', role: 'guest' },
    ],
    teams: [{ key: 'eng', name: 'Engineering', members: ['alice'] }],
    integrations: [{ key: 'bot', name: 'Bot' }],
    projects: [
      {
        key: 'open',
        name: 'Open project',
        description: 'Everyone sees this',
        status: 'active',
        visibility: 'workspace',
        owner: 'alice',
        members: [{ person: 'gus' }],
        created_at: '2026-01-01T00:00:00Z',
      },
      {
        key: 'secret',
        name: 'Secret project',
        description: 'Only members',
        status: 'planned',
        visibility: 'private',
        owner: 'alice',
        members: [{ team: 'eng' }, { integration: 'bot' }],
        created_at: '2026-01-02T00:00:00Z',
      },
    ],
    canvases: [
      {
        key: 'plan',
        title: 'Launch plan',
        summary: 'How we launch',
        project: 'secret',
        visibility: 'project',
        owner: 'alice',
        links: ['t-secret'],
      },
    ],
    tasks: [
      {
        key: 't-open',
        title: 'Open task',
        status: 'todo',
        project: 'open',
        creator: 'alice',
        assignee: 'gus',
        due: '2026-12-01',
      },
      {
        key: 't-secret',
        title: 'Secret task',
        status: 'in_progress',
        project: 'secret',
        creator: 'alice',
        canvas: 'plan',
      },
    ],
    okrs: [
      {
        key: 'o1',
        title: 'Grow',
        session: '2026-Q4',
        owner: 'alice',
        visibility: 'workspace',
        key_results: [{ key: 'kr1', title: 'Signups', target: 100, current: 40 }],
      },
    ],
    comments: [
      {
        key: 'm1',
        on: 't-secret',
        author: 'alice',
        body: 'Secret remark',
        at: '2026-11-20T10:00:00Z',
      },
    ],
    api_keys: [
      {
        key: 'olive-key',
        person: 'olive',
        scopes: [...ALL_READ_SCOPES, 'audit:read', 'webhook:manage'],
      },
      { key: 'adam-key', person: 'adam', scopes: ALL_READ_SCOPES },
      { key: 'alice-key', person: 'alice', scopes: ALL_READ_SCOPES },
      { key: 'bob-key', person: 'bob', scopes: ALL_READ_SCOPES },
      { key: 'gus-key', person: 'gus', scopes: ALL_READ_SCOPES },
      { key: 'narrow-key', person: 'alice', scopes: ['task:read'] },
    ],
    workspace_tokens: [{ key: 'bot-token', integration: 'bot', scopes: ALL_READ_SCOPES }],
    ...overrides,
  }
}

/**
 * The work factor of the passwords tests import: scrypt's own, far below the service's. Sign-in
 * reads it from each hash, so every rule is the same; only the seconds per sign-in are not.
 */
export const TEST_PASSWORD_COST = { N: 2 ** 10, r: 8, p: 1 }

/** Imports a bundle that must be valid, and returns the ids and secrets. */
export async function importOk(
  db: Kysely<Database>,
  bundle: Bundle | unknown,
  options: ImportOptions = {},
): Promise<ImportResult> {
  const outcome = await importBundle(db, bundle, { passwordCost: TEST_PASSWORD_COST, ...options })
  if (!outcome.ok) throw new Error(`bundle rejected: ${JSON.stringify(outcome.problems, null, 2)}`)
  return outcome.result
}

/** The bearer token of an imported API key or workspace token, by bundle key. */
export function tokenOf(result: ImportResult, key: string): string {
  const secret = result.api_keys[key] ?? result.workspace_tokens[key]
  if (!secret) throw new Error(`no token ${key} in the bundle`)
  return secret.token
}

/** Every write scope of the content API. */
export const ALL_WRITE_SCOPES = ['task:write', 'comment:write', 'okr:checkin', 'canvas:write']

/**
 * The bundle with `scopes` added to every key and workspace token but the two that stay narrow
 * (`read-only-key`, `narrow-key`): for tests of writes beyond the content API's.
 */
export function withScopes(bundle: Bundle, scopes: readonly string[]): Bundle {
  const more = <T extends { key: string; scopes: string[] }>(token: T): T =>
    token.key === 'read-only-key' || token.key === 'narrow-key'
      ? token
      : { ...token, scopes: [...new Set([...token.scopes, ...scopes])] }
  return {
    ...bundle,
    api_keys: (bundle.api_keys ?? []).map(more),
    workspace_tokens: (bundle.workspace_tokens ?? []).map(more),
  }
}

/** The small workspace with tokens that may also write (and read everything). */
export function writableBundle(): Bundle {
  const base = smallBundle()
  const scopes = [...ALL_READ_SCOPES, ...ALL_WRITE_SCOPES]
  return {
    ...base,
    api_keys: [
      ...(base.api_keys ?? []).map((key) =>
        key.key === 'narrow-key'
          ? key
          : {
              ...key,
              scopes: [
                ...key.scopes,
                ...ALL_WRITE_SCOPES,
                ...(key.key === 'olive-key' ? ['token:manage'] : []),
              ],
            },
      ),
      { key: 'read-only-key', person: 'alice', scopes: ALL_READ_SCOPES },
    ],
    workspace_tokens: [{ key: 'bot-token', integration: 'bot', scopes }],
  }
}

/** The writable workspace whose tokens (but `read-only-key` and `narrow-key`) manage webhooks. */
export function webhookBundle(): Bundle {
  const base = writableBundle()
  const add = <T extends { key: string; scopes: string[] }>(token: T): T =>
    token.key === 'read-only-key' || token.key === 'narrow-key'
      ? token
      : { ...token, scopes: [...new Set([...token.scopes, 'webhook:manage'])] }
  return {
    ...base,
    api_keys: (base.api_keys ?? []).map(add),
    workspace_tokens: (base.workspace_tokens ?? []).map(add),
  }
}

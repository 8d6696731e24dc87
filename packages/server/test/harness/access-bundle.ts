import type { Bundle } from '../../src/bundle/bundle.schema.ts'
import { ALL_READ_SCOPES } from './bundles.ts'

const people = ['olive', 'adam', 'alice', 'bob', 'gus'] as const
const roles = { olive: 'owner', adam: 'admin', alice: 'member', bob: 'member', gus: 'guest' }
/**
 * A workspace built so that every kind of access reason occurs, for the API and dashboard tests:
 * `alice` (member, team eng), `bob` (member, team ops, direct member of the private project),
 * `gus` (guest, team ops, direct member of the open project), `bot` (integration).
 */
export const accessBundle: Bundle = {
  format: 'workgraph.bundle/v1',
  workspace: { key: 'ws', name: 'Access reasons', plan: 'business' },
  people: people.map((key) => ({
    key,
    name: `${key[0]?.toUpperCase()}${key.slice(1)}`,
    email: `${key}@example.test`,
    role: roles[key] as 'owner',
  })),
  teams: [
    { key: 'eng', name: 'Engineering', members: ['alice'] },
    { key: 'ops', name: 'Operations', members: ['bob', 'gus'] },
  ],
  integrations: [{ key: 'bot', name: 'Bot' }],
  projects: [
    {
      key: 'open',
      name: 'Open',
      status: 'active',
      visibility: 'workspace',
      owner: 'alice',
      members: [{ person: 'gus' }, { team: 'ops' }],
    },
    {
      key: 'secret',
      name: 'Secret',
      status: 'active',
      visibility: 'private',
      owner: 'alice',
      members: [{ team: 'eng' }, { integration: 'bot' }, { person: 'bob' }],
    },
  ],
  canvases: [
    { key: 'plan', title: 'Plan', project: 'secret', visibility: 'project', owner: 'alice' },
    {
      key: 'priv',
      title: 'Private',
      visibility: 'private',
      owner: 'alice',
      shared_with: [{ person: 'bob' }, { team: 'ops' }, { integration: 'bot' }],
    },
    { key: 'loose', title: 'Loose', visibility: 'project', owner: 'bob' },
  ],
  tasks: [
    {
      key: 't-open',
      title: 'Write the launch checklist',
      status: 'todo',
      project: 'open',
      creator: 'alice',
      assignee: 'gus',
    },
    {
      key: 't-secret',
      title: 'Pick a launch date',
      status: 'todo',
      project: 'secret',
      creator: 'alice',
    },
    { key: 't-solo', title: 'Book the venue', status: 'todo', creator: 'bob', assignee: 'bob' },
  ],
  okrs: [
    {
      key: 'o-pub',
      title: 'Public',
      session: '2026-Q4',
      owner: 'gus',
      visibility: 'workspace',
      key_results: [{ key: 'kr-pub', title: 'One', target: 1, current: 0 }],
    },
    {
      key: 'o-priv',
      title: 'Private',
      session: '2026-Q4',
      owner: 'adam',
      team: 'eng',
      visibility: 'private',
      key_results: [{ key: 'kr-priv', title: 'Two', target: 1, current: 0 }],
    },
  ],
  comments: [
    { key: 'm1', on: 't-secret', author: 'alice', body: 'Note', at: '2026-11-20T10:00:00Z' },
  ],
  api_keys: [
    ...people.map((key) => ({ key: `${key}-key`, person: key, scopes: ALL_READ_SCOPES })),
    { key: 'narrow-key', person: 'alice', scopes: ['task:read'] },
  ],
  workspace_tokens: [{ key: 'bot-token', integration: 'bot', scopes: ALL_READ_SCOPES }],
}

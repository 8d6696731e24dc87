import type { KindInfo } from './kind.ts'

/*
 * The resource kinds of the graph, as plain data: the one list that ids, scopes, visibility,
 * search, summaries, MCP, the dashboard and the OpenAPI document derive theirs from. Each kind's
 * parts (how it is indexed, loaded, summarized, listed and shown) live in its folder under
 * `kinds/`; docs/architecture.md, "Adding a resource kind", lists what a new kind needs.
 */

/** The built-in resource kinds, by name. */
export const KINDS = {
  workspace: {
    name: 'workspace',
    prefix: 'wsp',
    readScope: 'workspace:read',
    indexed: false,
    standalone: false,
    tag: { name: 'workspace', description: 'The workspace a token belongs to.' },
    noun: 'workspace',
    plural: 'workspaces',
  },
  person: {
    name: 'person',
    prefix: 'usr',
    readScope: 'people:read',
    indexed: false,
    standalone: true,
    tag: { name: 'people', description: 'The people and teams the caller can see.' },
    noun: 'person',
    plural: 'people',
    search: { bodyField: 'role' },

    verbs: { invited: 'directory', joined: 'event', updated: 'event' },
  },
  team: {
    name: 'team',
    prefix: 'team',
    readScope: 'people:read',
    indexed: false,
    standalone: true,
    noun: 'team',
    plural: 'teams',
    search: { bodyField: 'name' },

    verbs: { created: 'event', updated: 'event', member_added: 'event', member_removed: 'event' },
  },
  project: {
    name: 'project',
    prefix: 'prj',
    readScope: 'project:read',
    indexed: true,
    standalone: true,
    search: { bodyField: 'description' },
    tag: { name: 'projects', description: 'Projects the caller can open.' },
    noun: 'project',
    plural: 'projects',

    verbs: { created: 'event', updated: 'event', member_added: 'event', member_removed: 'event' },
  },
  canvas: {
    name: 'canvas',
    prefix: 'cnv',
    readScope: 'canvas:read',
    indexed: true,
    standalone: true,
    search: { bodyField: 'summary' },
    tag: { name: 'canvases', description: 'Canvases: documents and boards, by their metadata.' },
    noun: 'canvas',
    plural: 'canvases',
    // What people call canvases in a question ("the mobile release plan doc").
    aliases: ['docs', 'documents', 'specs'],

    verbs: { created: 'activity', updated: 'event' },
  },
  task: {
    name: 'task',
    prefix: 'tsk',
    readScope: 'task:read',
    indexed: true,
    standalone: true,
    search: { bodyField: 'description' },
    tag: { name: 'tasks', description: 'Tasks: list, create and complete.' },
    noun: 'task',
    plural: 'tasks',

    verbs: { created: 'event', completed: 'event', updated: 'event' },
  },
  okr: {
    name: 'okr',
    prefix: 'obj',
    readScope: 'okr:read',
    indexed: true,
    standalone: true,
    search: { bodyField: 'key_results' },
    tag: { name: 'okrs', description: 'Objectives, key results and check-ins.' },
    noun: 'objective',
    plural: 'objectives',
    aliases: ['okrs', 'goals'],

    verbs: { created: 'event', checkin: 'event', updated: 'event' },
  },
  key_result: {
    name: 'key_result',
    prefix: 'kr',
    readScope: 'okr:read',
    indexed: false,
    standalone: false,
    noun: 'key result',
    plural: 'key results',
  },
  checkin: {
    name: 'checkin',
    prefix: 'chk',
    readScope: 'okr:read',
    indexed: false,
    standalone: false,
    noun: 'check-in',
    plural: 'check-ins',
  },
  comment: {
    name: 'comment',
    prefix: 'cmt',
    readScope: 'comment:read',
    indexed: true,
    standalone: true,
    search: { bodyField: 'body' },
    tag: { name: 'comments', description: 'Comment threads on any resource.' },
    noun: 'comment',
    plural: 'comments',

    verbs: { created: 'event' },
  },
  activity: {
    name: 'activity',
    prefix: 'act',
    readScope: 'activity:read',
    indexed: false,
    standalone: true,
    search: { bodyField: 'verb' },
    tag: {
      name: 'activity',
      description: 'The append-only activity stream, filtered at read time.',
    },
    noun: 'activity entry',
    plural: 'activity',
  },
} as const satisfies Record<string, KindInfo>

/** The name of a built-in kind. */
export type BuiltInKind = keyof typeof KINDS

/** Prefixes of the ids the service hands out that name no resource kind. */
export const OTHER_ID_PREFIXES = {
  integration: 'itg',
  event: 'evt',
  webhook: 'whk',
  delivery: 'dlv',
  apiKey: 'key',
  workspaceToken: 'wst',
  oauthClient: 'cli',
  oauthGrant: 'grt',
  audit: 'aud',
  request: 'req',
  invitation: 'inv',
} as const

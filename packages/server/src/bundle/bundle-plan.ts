import type { Insertable } from 'kysely'
import { hashSecret, lastFour, newSecret, SECRET_PREFIX } from '../access/secrets.ts'
import type { ActivityVerb } from '../catalogue/verbs.ts'
import type { Database } from '../db/database.ts'
import { objectiveProgress } from '../graph/okrs/okr-progress.ts'
import { type IdKind, newId } from '../lib/ids.ts'
import { applicationTypeOf } from '../oauth/oauth-clients.ts'
import { activitySearchText } from '../writes/activity-text.ts'
import type { Bundle, BundlePrincipalRef } from './bundle.schema.ts'
import type { KeyKind, KeyTable } from './bundle-references.ts'
import { parentsFirst } from './parent-chains.ts'

type Rows<T extends keyof Database> = Insertable<Database[T]>[]

/** The secrets an import created, shown once (docs/bundles.md, `--json`). */
export interface ImportSecrets {
  api_keys: Record<string, { id: string; token: string }>
  workspace_tokens: Record<string, { id: string; token: string }>
  oauth_clients: Record<string, { client_id: string; client_secret?: string }>
}

/** Every row a valid bundle becomes, in an order that satisfies the foreign keys. */
export interface BundlePlan {
  workspaceId: string
  ids: Record<string, string>
  secrets: ImportSecrets
  /** person id → password, hashed by the importer before it writes. */
  passwords: Map<string, string>
  tables: { [T in keyof Database]?: Rows<T> }
}

const ID_KIND: Record<KeyKind, IdKind> = {
  workspace: 'workspace',
  person: 'person',
  team: 'team',
  integration: 'integration',
  project: 'project',
  canvas: 'canvas',
  task: 'task',
  okr: 'okr',
  'key result': 'key_result',
  'check-in': 'checkin',
  comment: 'comment',
  'API key': 'apiKey',
  'workspace token': 'workspaceToken',
  'OAuth client': 'oauthClient',
}

/** Makes the id of a bundle key (or, for activity, of `verb:subject-key`). */
export type IdMaker = (kind: IdKind, key: string) => string

/**
 * Turns a bundle that passed validation into rows: an id per key (fresh random ids unless a test
 * supplies `makeId`), times filled in, OKR progress computed, secrets generated (only their hashes
 * go into rows), and an activity entry for everything created. Subtasks and replies come after
 * their parents.
 */
export function planImport(
  bundle: Bundle,
  keys: KeyTable,
  now: Date,
  makeId: IdMaker = (kind) => newId(kind),
): BundlePlan {
  const ids: Record<string, string> = {}
  for (const [key, { kind }] of keys) ids[key] = makeId(ID_KIND[kind], key)
  const keyOf = new Map(Object.entries(ids).map(([key, id]) => [id, key]))
  const id = (key: string) => ids[key] as string
  const opt = (key: string | null | undefined) => (key ? id(key) : null)
  const ws = id(bundle.workspace.key)
  const at = (value: string | undefined) => (value ? new Date(value) : now)
  const principal = (ref: BundlePrincipalRef | string) => {
    if (typeof ref === 'string') {
      const kind = keys.get(ref)?.kind
      return {
        person_id: kind === 'person' ? id(ref) : null,
        team_id: kind === 'team' ? id(ref) : null,
        integration_id: kind === 'integration' ? id(ref) : null,
      }
    }
    return {
      person_id: 'person' in ref ? id(ref.person) : null,
      team_id: 'team' in ref ? id(ref.team) : null,
      integration_id: 'integration' in ref ? id(ref.integration) : null,
    }
  }
  const t: BundlePlan['tables'] = {}
  const activity: Rows<'activity'> = []
  const record = (
    verb: ActivityVerb,
    actor: string,
    subject: string,
    type: string,
    project: string | null,
    time: Date,
    extra: { object_id?: string; refs?: (string | null)[] } = {},
  ) =>
    activity.push({
      workspace_id: ws,
      id: makeId('activity', `${verb}:${keyOf.get(subject)}`),
      verb,
      actor_id: actor,
      subject_id: subject,
      subject_type: type,
      object_id: extra.object_id ?? null,
      project_id: project,
      ref_ids: [
        ...new Set(
          [project, ...(extra.refs ?? [])].filter(
            (ref): ref is string => ref !== null && ref !== subject,
          ),
        ),
      ],
      search_text: activitySearchText(verb),
      created_at: time,
    })

  t.workspaces = [
    {
      id: ws,
      name: bundle.workspace.name,
      plan: bundle.workspace.plan ?? 'free',
      created_at: now,
      updated_at: now,
    },
  ]
  const passwords = new Map<string, string>()
  t.people = bundle.people.map((p) => {
    if (p.password) passwords.set(id(p.key), p.password)
    return {
      workspace_id: ws,
      id: id(p.key),
      name: p.name,
      email: p.email,
      role: p.role,
      password_hash: null,
      created_at: now,
      updated_at: now,
    }
  })
  t.teams = (bundle.teams ?? []).map((team) => ({
    workspace_id: ws,
    id: id(team.key),
    name: team.name,
    created_at: now,
    updated_at: now,
  }))
  t.team_members = (bundle.teams ?? []).flatMap((team) =>
    (team.members ?? []).map((m) => ({
      workspace_id: ws,
      team_id: id(team.key),
      person_id: id(m),
    })),
  )
  t.integrations = (bundle.integrations ?? []).map((i) => ({
    workspace_id: ws,
    id: id(i.key),
    name: i.name,
    created_at: now,
  }))

  t.projects = (bundle.projects ?? []).map((p) => {
    const created = at(p.created_at)
    record('project.created', id(p.owner), id(p.key), 'project', id(p.key), created)
    return {
      workspace_id: ws,
      id: id(p.key),
      name: p.name,
      description: p.description ?? '',
      status: p.status,
      visibility: p.visibility,
      owner_id: id(p.owner),
      created_at: created,
      updated_at: created,
    }
  })
  t.project_members = (bundle.projects ?? []).flatMap((p) =>
    (p.members ?? []).map((m) => ({ workspace_id: ws, project_id: id(p.key), ...principal(m) })),
  )

  t.canvases = (bundle.canvases ?? []).map((c) => {
    const created = at(c.created_at)
    record('canvas.created', id(c.owner), id(c.key), 'canvas', opt(c.project), created)
    return {
      workspace_id: ws,
      id: id(c.key),
      title: c.title,
      summary: c.summary ?? '',
      project_id: opt(c.project),
      visibility: c.visibility,
      owner_id: id(c.owner),
      created_at: created,
      updated_at: created,
    }
  })
  t.canvas_shares = (bundle.canvases ?? []).flatMap((c) =>
    (c.shared_with ?? []).map((s) => ({ workspace_id: ws, canvas_id: id(c.key), ...principal(s) })),
  )
  t.canvas_links = (bundle.canvases ?? []).flatMap((c) =>
    (c.links ?? []).map((link, position) => ({
      workspace_id: ws,
      canvas_id: id(c.key),
      target_id: id(link),
      position,
    })),
  )

  t.tasks = parentsFirst(bundle.tasks ?? [], (task) => task.parent).map((task) => {
    const created = at(task.created_at)
    const completed = task.status === 'done' ? at(task.completed_at ?? task.created_at) : null
    record('task.created', id(task.creator), id(task.key), 'task', opt(task.project), created, {
      refs: [opt(task.parent)],
    })
    if (completed) {
      record(
        'task.completed',
        opt(task.assignee) ?? id(task.creator),
        id(task.key),
        'task',
        opt(task.project),
        completed,
        { refs: [opt(task.parent)] },
      )
    }
    return {
      workspace_id: ws,
      id: id(task.key),
      title: task.title,
      description: task.description ?? '',
      status: task.status,
      due: task.due ?? null,
      assignee_id: opt(task.assignee),
      parent_id: opt(task.parent),
      project_id: opt(task.project),
      canvas_id: opt(task.canvas),
      creator_id: id(task.creator),
      completed_at: completed,
      created_at: created,
      updated_at: completed && completed > created ? completed : created,
    }
  })

  const objectiveOf = new Map<string, string>()
  t.objectives = (bundle.okrs ?? []).map((o) => {
    const created = at(o.created_at)
    for (const kr of o.key_results) objectiveOf.set(kr.key, o.key)
    record('okr.created', id(o.owner), id(o.key), 'okr', opt(o.project), created)
    return {
      workspace_id: ws,
      id: id(o.key),
      title: o.title,
      session: o.session,
      owner_id: id(o.owner),
      team_id: opt(o.team),
      project_id: opt(o.project),
      visibility: o.visibility,
      created_at: created,
      updated_at: created,
      progress: objectiveProgress(
        o.key_results.map((kr) => ({
          start: kr.start ?? 0,
          target: kr.target,
          current: kr.current,
        })),
      ),
    }
  })
  t.key_results = (bundle.okrs ?? []).flatMap((o) =>
    o.key_results.map((kr, position) => ({
      workspace_id: ws,
      id: id(kr.key),
      objective_id: id(o.key),
      title: kr.title,
      start: kr.start ?? 0,
      target: kr.target,
      current: kr.current,
      unit: kr.unit ?? '',
      position,
      created_at: at(o.created_at),
      updated_at: at(o.created_at),
    })),
  )
  const okrProject = new Map((bundle.okrs ?? []).map((o) => [o.key, opt(o.project)]))
  t.checkins = (bundle.checkins ?? []).map((c) => {
    const objective = objectiveOf.get(c.key_result) as string
    record(
      'okr.checkin',
      id(c.author),
      id(objective),
      'okr',
      okrProject.get(objective) ?? null,
      at(c.at),
      { object_id: id(c.key) },
    )
    return {
      workspace_id: ws,
      id: id(c.key),
      key_result_id: id(c.key_result),
      objective_id: id(objective),
      value: c.value,
      confidence: c.confidence ?? null,
      note: c.note ?? '',
      author_id: id(c.author),
      created_at: at(c.at),
    }
  })

  const projectOf = contentProjects(bundle)
  t.comments = parentsFirst(bundle.comments ?? [], (c) => c.parent).map((c) => {
    record(
      'comment.created',
      id(c.author),
      id(c.key),
      'comment',
      opt(projectOf.get(c.on)),
      at(c.at),
      { refs: [id(c.on)] },
    )
    return {
      workspace_id: ws,
      id: id(c.key),
      resource_id: id(c.on),
      parent_id: opt(c.parent),
      author_id: id(c.author),
      body: c.body,
      created_at: at(c.at),
      updated_at: at(c.at),
    }
  })
  t.activity = activity

  const secrets: ImportSecrets = { api_keys: {}, workspace_tokens: {}, oauth_clients: {} }
  t.tokens = [
    ...(bundle.api_keys ?? []).map((k) => {
      const token = newSecret(SECRET_PREFIX.apiKey)
      secrets.api_keys[k.key] = { id: id(k.key), token }
      return {
        workspace_id: ws,
        id: id(k.key),
        kind: 'api_key' as const,
        person_id: id(k.person),
        integration_id: null,
        name: k.name ?? k.key,
        scopes: k.scopes,
        secret_hash: hashSecret(token),
        last4: lastFour(token),
        created_at: now,
      }
    }),
    ...(bundle.workspace_tokens ?? []).map((k) => {
      const token = newSecret(SECRET_PREFIX.workspaceToken)
      secrets.workspace_tokens[k.key] = { id: id(k.key), token }
      return {
        workspace_id: ws,
        id: id(k.key),
        kind: 'workspace_token' as const,
        person_id: null,
        integration_id: id(k.integration),
        name: k.name ?? k.key,
        scopes: k.scopes,
        secret_hash: hashSecret(token),
        last4: lastFour(token),
        created_at: now,
      }
    }),
  ]
  t.oauth_clients = (bundle.oauth_clients ?? []).map((c) => {
    const secret = c.public ? undefined : newSecret(SECRET_PREFIX.oauthClient)
    secrets.oauth_clients[c.key] = secret
      ? { client_id: id(c.key), client_secret: secret }
      : { client_id: id(c.key) }
    return {
      workspace_id: ws,
      id: id(c.key),
      name: c.name,
      redirect_uris: c.redirect_uris,
      public: c.public,
      secret_hash: secret ? hashSecret(secret) : null,
      application_type: applicationTypeOf(c.public, c.redirect_uris),
      created_at: now,
    }
  })
  return { workspaceId: ws, ids, secrets, passwords, tables: t }
}

// The project each commentable resource belongs to (a project is its own).
function contentProjects(bundle: Bundle): Map<string, string | null> {
  const map = new Map<string, string | null>()
  for (const p of bundle.projects ?? []) map.set(p.key, p.key)
  for (const c of bundle.canvases ?? []) map.set(c.key, c.project ?? null)
  for (const task of bundle.tasks ?? []) map.set(task.key, task.project ?? null)
  for (const o of bundle.okrs ?? []) map.set(o.key, o.project ?? null)
  return map
}

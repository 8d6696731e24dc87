import { isKnownScope } from '../access/scopes.ts'
import { redirectUriProblem } from '../oauth/oauth-clients.ts'
import type { Bundle, BundlePrincipalRef } from './bundle.schema.ts'
import { followParents } from './parent-chains.ts'
import type { Problem } from './schema-problems.ts'

/** The kinds of object a bundle key can name. */
export type KeyKind =
  | 'workspace'
  | 'person'
  | 'team'
  | 'integration'
  | 'project'
  | 'canvas'
  | 'task'
  | 'okr'
  | 'key result'
  | 'check-in'
  | 'comment'
  | 'API key'
  | 'workspace token'
  | 'OAuth client'

/** Every key of a bundle, with its kind and where it is defined. */
export type KeyTable = Map<string, { kind: KeyKind; path: string }>

/** Things a comment can be on, and a canvas can link to. */
const CONTENT: readonly KeyKind[] = ['project', 'canvas', 'task', 'okr']
const ACTOR: readonly KeyKind[] = ['person', 'integration']

/**
 * The problems that the schema cannot see: duplicate keys and emails, references that do not
 * resolve or name the wrong kind, a subtask outside its parent's project, cycles, duplicates that
 * would collide in the database, unknown scopes and unusable redirect URIs.
 */
export function referenceProblems(bundle: Bundle): { problems: Problem[]; keys: KeyTable } {
  const problems: Problem[] = []
  const keys: KeyTable = new Map()
  const define = (kind: KeyKind, key: string, path: string) => {
    const first = keys.get(key)
    if (first)
      problems.push({
        path: `${path}/key`,
        message: `key "${key}" is already used at ${first.path}/key`,
      })
    else keys.set(key, { kind, path })
  }
  const refer = (
    path: string,
    key: string | null | undefined,
    kinds: readonly KeyKind[],
  ): boolean => {
    if (key === null || key === undefined) return false
    const target = keys.get(key)
    if (!target)
      problems.push({ path, message: `refers to "${key}", which is not defined in this bundle` })
    else if (!kinds.includes(target.kind)) {
      problems.push({
        path,
        message: `refers to "${key}", which is ${article(target.kind)}; expected ${kinds.map(article).join(' or ')}`,
      })
    } else return true
    return false
  }
  const unique = (path: string, values: readonly string[], what: string) => {
    const seen = new Set<string>()
    values.forEach((value, i) => {
      if (seen.has(value))
        problems.push({ path: `${path}/${i}`, message: `lists ${what} "${value}" twice` })
      seen.add(value)
    })
  }

  define('workspace', bundle.workspace.key, '/workspace')
  const lists: [KeyKind, string, readonly { key: string }[] | undefined][] = [
    ['person', 'people', bundle.people],
    ['team', 'teams', bundle.teams],
    ['integration', 'integrations', bundle.integrations],
    ['project', 'projects', bundle.projects],
    ['canvas', 'canvases', bundle.canvases],
    ['task', 'tasks', bundle.tasks],
    ['okr', 'okrs', bundle.okrs],
    ['check-in', 'checkins', bundle.checkins],
    ['comment', 'comments', bundle.comments],
    ['API key', 'api_keys', bundle.api_keys],
    ['workspace token', 'workspace_tokens', bundle.workspace_tokens],
    ['OAuth client', 'oauth_clients', bundle.oauth_clients],
  ]
  for (const [kind, list, items] of lists) {
    for (const [i, item] of (items ?? []).entries()) define(kind, item.key, `/${list}/${i}`)
  }
  for (const [i, okr] of (bundle.okrs ?? []).entries()) {
    for (const [j, kr] of okr.key_results.entries())
      define('key result', kr.key, `/okrs/${i}/key_results/${j}`)
  }

  const emails = new Map<string, number>()
  bundle.people.forEach((p, i) => {
    const email = p.email.toLowerCase()
    const first = emails.get(email)
    if (first !== undefined)
      problems.push({
        path: `/people/${i}/email`,
        message: `email is already used by /people/${first}`,
      })
    else emails.set(email, i)
  })

  bundle.teams?.forEach((t, i) => {
    for (const [j, m] of (t.members ?? []).entries())
      refer(`/teams/${i}/members/${j}`, m, ['person'])
    unique(`/teams/${i}/members`, t.members ?? [], 'member')
  })

  const principalKey = (ref: BundlePrincipalRef | string): [string, KeyKind[]] =>
    typeof ref === 'string'
      ? [ref, ['person', 'team', 'integration']]
      : 'person' in ref
        ? [ref.person, ['person']]
        : 'team' in ref
          ? [ref.team, ['team']]
          : [ref.integration, ['integration']]
  const principals = (
    path: string,
    refs: readonly (BundlePrincipalRef | string)[],
    what: string,
  ) => {
    refs.forEach((ref, j) => {
      const [key, kinds] = principalKey(ref)
      refer(`${path}/${j}${typeof ref === 'string' ? '' : `/${Object.keys(ref)[0]}`}`, key, kinds)
    })
    unique(
      path,
      refs.map((ref) => principalKey(ref)[0]),
      what,
    )
  }

  bundle.projects?.forEach((p, i) => {
    refer(`/projects/${i}/owner`, p.owner, ['person'])
    principals(`/projects/${i}/members`, p.members ?? [], 'member')
  })

  bundle.canvases?.forEach((c, i) => {
    refer(`/canvases/${i}/owner`, c.owner, ['person'])
    refer(`/canvases/${i}/project`, c.project, ['project'])
    principals(`/canvases/${i}/shared_with`, c.shared_with ?? [], 'share')
    c.links?.forEach((link, j) => {
      if (link === c.key)
        problems.push({
          path: `/canvases/${i}/links/${j}`,
          message: 'a canvas cannot link to itself',
        })
      else refer(`/canvases/${i}/links/${j}`, link, CONTENT)
    })
    unique(`/canvases/${i}/links`, c.links ?? [], 'link')
  })

  const tasks = new Map((bundle.tasks ?? []).map((t, i) => [t.key, { task: t, index: i }]))
  bundle.tasks?.forEach((t, i) => {
    const path = `/tasks/${i}`
    refer(`${path}/project`, t.project, ['project'])
    refer(`${path}/canvas`, t.canvas, ['canvas'])
    refer(`${path}/assignee`, t.assignee, ['person'])
    refer(`${path}/creator`, t.creator, ACTOR)
    if (t.completed_at && t.status !== 'done') {
      problems.push({
        path: `${path}/completed_at`,
        message: 'only a task whose status is "done" has a completion time',
      })
    }
    if (t.parent === t.key)
      problems.push({ path: `${path}/parent`, message: 'a task cannot be its own parent' })
    else if (refer(`${path}/parent`, t.parent, ['task'])) {
      const parent = tasks.get(t.parent ?? '')?.task
      if (parent && (parent.project ?? null) !== (t.project ?? null)) {
        problems.push({
          path: `${path}/project`,
          message: `a subtask's project must be its parent's: "${t.parent}" is in ${parent.project ? `"${parent.project}"` : 'no project'}`,
        })
      }
    }
  })
  reportCycles(bundle.tasks ?? [], (t) => t.parent, 'tasks', problems)

  bundle.okrs?.forEach((o, i) => {
    refer(`/okrs/${i}/owner`, o.owner, ['person'])
    refer(`/okrs/${i}/team`, o.team, ['team'])
    refer(`/okrs/${i}/project`, o.project, ['project'])
    o.key_results.forEach((kr, j) => {
      if (kr.target === (kr.start ?? 0)) {
        problems.push({
          path: `/okrs/${i}/key_results/${j}/target`,
          message: 'must differ from start (0 when not given)',
        })
      }
    })
  })

  bundle.checkins?.forEach((c, i) => {
    refer(`/checkins/${i}/key_result`, c.key_result, ['key result'])
    refer(`/checkins/${i}/author`, c.author, ACTOR)
  })

  const comments = new Map((bundle.comments ?? []).map((c) => [c.key, c]))
  bundle.comments?.forEach((c, i) => {
    refer(`/comments/${i}/on`, c.on, CONTENT)
    refer(`/comments/${i}/author`, c.author, ACTOR)
    if (c.parent === c.key)
      problems.push({ path: `/comments/${i}/parent`, message: 'a comment cannot reply to itself' })
    else if (refer(`/comments/${i}/parent`, c.parent, ['comment'])) {
      const parent = comments.get(c.parent ?? '')
      if (parent && parent.on !== c.on) {
        problems.push({
          path: `/comments/${i}/on`,
          message: `a reply must be on the same resource as its parent ("${parent.on}")`,
        })
      }
    }
  })
  reportCycles(bundle.comments ?? [], (c) => c.parent, 'comments', problems)

  const scopes = (path: string, list: readonly string[]) =>
    list.forEach((scope, j) => {
      if (!isKnownScope(scope))
        problems.push({ path: `${path}/${j}`, message: `"${scope}" is not a known scope` })
    })
  bundle.api_keys?.forEach((k, i) => {
    refer(`/api_keys/${i}/person`, k.person, ['person'])
    scopes(`/api_keys/${i}/scopes`, k.scopes)
  })
  bundle.workspace_tokens?.forEach((k, i) => {
    refer(`/workspace_tokens/${i}/integration`, k.integration, ['integration'])
    scopes(`/workspace_tokens/${i}/scopes`, k.scopes)
  })
  for (const [i, c] of (bundle.oauth_clients ?? []).entries()) {
    for (const [j, uri] of c.redirect_uris.entries()) {
      const problem = redirectUriProblem(uri)
      if (problem)
        problems.push({ path: `/oauth_clients/${i}/redirect_uris/${j}`, message: problem })
    }
  }
  return { problems, keys }
}

function reportCycles<T extends { key: string }>(
  items: readonly T[],
  parentOf: (item: T) => string | null | undefined,
  list: string,
  problems: Problem[],
): void {
  const index = new Map(items.map((item, i) => [item.key, i]))
  for (const cycle of followParents(items, parentOf).cycles) {
    if (cycle.length < 2) continue // a self-parent is reported on its own
    problems.push({
      path: `/${list}/${index.get(cycle[0] as string)}/parent`,
      message: `parents form a cycle: ${[...cycle, cycle[0]].join(' → ')}`,
    })
  }
}

function article(kind: KeyKind): string {
  return `${/^[aeiou]/i.test(kind) ? 'an' : 'a'} ${kind}`
}

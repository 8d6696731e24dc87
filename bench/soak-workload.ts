import { Pool } from 'undici'

/** What one request of the soak came to. */
export interface Outcome {
  route: string
  /** HTTP status, or 0 when no answer came (connection refused, reset, timeout). */
  status: number
  ok: boolean
  /** The answer's body (or the network error) when not ok, cut to 500 characters. */
  body?: string
}

/** A principal the soak acts as, with what its earlier answers showed it may open. */
interface Principal {
  name: string
  token: string
  tasks: string[]
  projects: string[]
}

type Route = (p: Principal, n: number) => RequestSpec
interface RequestSpec {
  route: string
  method: 'GET' | 'POST'
  path: string
  body?: Record<string, unknown>
}

// 20 slots, 3 of them writes (15 %); interleaved so that a minute's share does not drift.
const MIX = [
  'tasks',
  'search',
  'projects',
  'activity',
  'task',
  'createTask',
  'tasks',
  'search',
  'projects',
  'task',
  'activity',
  'comment',
  'search',
  'tasks',
  'projects',
  'task',
  'createTask',
  'activity',
  'search',
  'tasks',
] as const
const KEEP_IDS = 500

/**
 * The soak's mixed load over two or more instances: request `n` goes to instance `n % count`, as
 * principal `floor(n / count) % 2`, and takes slot `floor(n / 2·count) % 20` of `MIX`, so every
 * route reaches every instance as every principal. Reads: projects, tasks, search for a word of
 * the workspace, activity, a task by id from an earlier list; writes: a task, a comment on one.
 */
export class Workload {
  private readonly pools: Pool[]
  private readonly principals: Principal[]
  private readonly words: string[]
  private readonly runId = `soak-${process.pid}-${Date.now()}`

  constructor(bases: string[], tokens: Record<string, string>, words: string[]) {
    // Many connections: an open-loop load must not queue behind a slow answer in its own client.
    this.pools = bases.map((base) => new Pool(base, { connections: 64 }))
    this.principals = Object.entries(tokens).map(([name, token]) => ({
      name,
      token,
      tasks: [],
      projects: [],
    }))
    this.words = words
  }

  /** Fills each principal's ids from its first pages, so the first writes have targets. */
  async prime(): Promise<void> {
    for (const p of this.principals) {
      for (const path of ['/v1/projects?limit=100', '/v1/tasks?limit=100']) {
        const outcome = await this.send(0, p, { route: 'prime', method: 'GET', path }, 60_000)
        if (!outcome.ok) throw new Error(`priming ${path} as ${p.name}: ${outcome.body}`)
      }
    }
  }

  /**
   * Sends request `n` of the run and reports what came back; never throws. A request still
   * unanswered after `timeoutMs` (counted by the caller from when it was due) is given up as an
   * error, as a client would: otherwise an overloaded run would drain for as long as it lagged.
   */
  async issue(n: number, timeoutMs: number): Promise<Outcome> {
    const count = this.pools.length
    const instance = n % count
    const p = this.principals[Math.floor(n / count) % this.principals.length] as Principal
    const slot = MIX[Math.floor(n / (2 * count)) % MIX.length] ?? 'tasks'
    return this.send(instance, p, this.routes[slot](p, n), Math.max(1, Math.round(timeoutMs)))
  }

  /** Closes the connections. */
  close(): Promise<void> {
    return Promise.all(this.pools.map((pool) => pool.close())).then(() => undefined)
  }

  private readonly routes: Record<(typeof MIX)[number], Route> = {
    projects: () => ({ route: 'GET /v1/projects', method: 'GET', path: '/v1/projects' }),
    tasks: () => ({ route: 'GET /v1/tasks', method: 'GET', path: '/v1/tasks' }),
    activity: () => ({ route: 'GET /v1/activity', method: 'GET', path: '/v1/activity' }),
    search: (_, n) => ({
      route: 'POST /v1/search',
      method: 'POST',
      path: '/v1/search',
      body: { query: this.word(n), limit: 10 },
    }),
    task: (p, n) => ({
      route: 'GET /v1/resources/:id (task)',
      method: 'GET',
      path: `/v1/resources/${pick(p.tasks, n)}`,
    }),
    createTask: (p, n) => ({
      route: 'POST /v1/tasks',
      method: 'POST',
      path: '/v1/tasks',
      body: {
        title: `Soak ${this.word(n)} ${n}`,
        description: `Written by the soak run ${this.runId}.`,
        // Half in a project the principal can open (so lists and activity see them), half loose.
        ...(n % 2 === 0 && p.projects.length > 0 ? { project_id: pick(p.projects, n) } : {}),
      },
    }),
    comment: (p, n) => ({
      route: 'POST /v1/comments',
      method: 'POST',
      path: '/v1/comments',
      body: { resource_id: pick(p.tasks, n), body: `Soak comment ${n} on ${this.word(n)}.` },
    }),
  }

  private word(n: number): string {
    return this.words[(n * 7919) % this.words.length] ?? 'schedule'
  }

  private async send(
    instance: number,
    p: Principal,
    spec: RequestSpec,
    timeoutMs: number,
  ): Promise<Outcome> {
    const headers: Record<string, string> = { authorization: `Bearer ${p.token}` }
    if (spec.body) headers['content-type'] = 'application/json'
    // A fresh key per write: each one runs the whole write path, none is a replay.
    if (spec.method === 'POST' && spec.route !== 'POST /v1/search')
      headers['idempotency-key'] = `${this.runId}-${Math.random().toString(36).slice(2)}`
    try {
      const answer = await (this.pools[instance] as Pool).request({
        method: spec.method,
        path: spec.path,
        headers,
        signal: AbortSignal.timeout(timeoutMs),
        ...(spec.body ? { body: JSON.stringify(spec.body) } : {}),
      })
      const text = await answer.body.text()
      const ok = answer.statusCode >= 200 && answer.statusCode < 300
      if (ok) this.remember(p, spec.route, text)
      return {
        route: spec.route,
        status: answer.statusCode,
        ok,
        ...(ok ? {} : { body: text.slice(0, 500) }),
      }
    } catch (error) {
      const body =
        error instanceof Error && error.name === 'TimeoutError'
          ? `no answer within the time-out (${timeoutMs.toFixed(0)} ms left when sent)`
          : String(error)
      return { route: spec.route, status: 0, ok: false, body: body.slice(0, 500) }
    }
  }

  // Ids come from answers the principal got, so a task read by id is one it may open.
  private remember(p: Principal, route: string, text: string) {
    if (route === 'POST /v1/tasks') return keep(p.tasks, JSON.parse(text).id)
    if (route !== 'GET /v1/tasks' && route !== 'prime') return
    const page = JSON.parse(text) as { data: { id: string; type: string }[] }
    for (const item of page.data) keep(item.type === 'project' ? p.projects : p.tasks, item.id)
  }
}

function keep(ids: string[], id: string) {
  if (ids.includes(id)) return
  ids.push(id)
  if (ids.length > KEEP_IDS) ids.shift()
}

function pick(ids: string[], n: number): string {
  return ids[(n * 104_729) % Math.max(1, ids.length)] ?? 'tsk_none'
}

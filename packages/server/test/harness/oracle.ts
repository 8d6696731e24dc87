import type { Bundle } from '../../src/bundle/bundle.schema.ts'

/*
 * The permission rules of docs/permissions.md, written plainly over a bundle's keys: no tokens, no
 * ACL arrays, no SQL. Property tests compare every API answer with this. Keep it boring: it is only
 * useful if it is obviously right.
 */

type Role = 'owner' | 'admin' | 'member' | 'guest'

/** A mutable copy of a workspace's access-relevant facts, keyed by bundle key. */
export class World {
  readonly roles = new Map<string, Role>()
  readonly integrations = new Set<string>()
  readonly teams = new Map<string, Set<string>>()
  readonly projects = new Map<
    string,
    { visibility: 'workspace' | 'private'; owner: string; members: Set<string> }
  >()
  readonly canvases = new Map<
    string,
    {
      project: string | null
      visibility: 'project' | 'private'
      owner: string
      shares: Set<string>
      links: string[]
    }
  >()
  readonly tasks = new Map<
    string,
    {
      project: string | null
      parent: string | null
      assignee: string | null
      creator: string
      canvas: string | null
    }
  >()
  readonly okrs = new Map<
    string,
    {
      visibility: 'workspace' | 'private'
      owner: string
      team: string | null
      project: string | null
      keyResults: string[]
    }
  >()
  readonly comments = new Map<string, { on: string; parent: string | null; author: string }>()
  /** Each searchable item's own text: never a parent's or a neighbour's. */
  readonly text = new Map<string, string>()
  /**
   * Fenced viewers: a person's credential fenced to projects (docs/permissions.md, "Fenced
   * credentials"). Every method taking `who` takes a viewer's name too.
   */
  readonly fences = new Map<string, { person: string; projects: Set<string> }>()

  constructor(bundle: Bundle) {
    for (const p of bundle.people) this.roles.set(p.key, p.role)
    for (const i of bundle.integrations ?? []) this.integrations.add(i.key)
    for (const t of bundle.teams ?? []) this.teams.set(t.key, new Set(t.members ?? []))
    const principal = (ref: string | Record<string, string>) =>
      typeof ref === 'string' ? ref : (Object.values(ref)[0] as string)
    for (const p of bundle.projects ?? []) {
      this.projects.set(p.key, {
        visibility: p.visibility,
        owner: p.owner,
        members: new Set((p.members ?? []).map(principal)),
      })
    }
    for (const c of bundle.canvases ?? []) {
      this.canvases.set(c.key, {
        project: c.project ?? null,
        visibility: c.visibility,
        owner: c.owner,
        shares: new Set((c.shared_with ?? []).map(principal)),
        links: c.links ?? [],
      })
    }
    for (const t of bundle.tasks ?? []) {
      this.tasks.set(t.key, {
        project: t.project ?? null,
        parent: t.parent ?? null,
        assignee: t.assignee ?? null,
        creator: t.creator,
        canvas: t.canvas ?? null,
      })
    }
    for (const o of bundle.okrs ?? []) {
      this.okrs.set(o.key, {
        visibility: o.visibility,
        owner: o.owner,
        team: o.team ?? null,
        project: o.project ?? null,
        keyResults: o.key_results.map((kr) => kr.key),
      })
    }
    for (const c of bundle.comments ?? [])
      this.comments.set(c.key, { on: c.on, parent: c.parent ?? null, author: c.author })
    for (const p of bundle.projects ?? []) this.text.set(p.key, `${p.name} ${p.description ?? ''}`)
    for (const c of bundle.canvases ?? []) this.text.set(c.key, `${c.title} ${c.summary ?? ''}`)
    for (const t of bundle.tasks ?? []) this.text.set(t.key, `${t.title} ${t.description ?? ''}`)
    for (const o of bundle.okrs ?? [])
      this.text.set(o.key, `${o.title} ${o.key_results.map((kr) => kr.title).join(' ')}`)
    for (const c of bundle.comments ?? []) this.text.set(c.key, c.body)
  }

  /** Adds a viewer: `person` through a credential fenced to `projects`. */
  addFence(viewer: string, person: string, projects: Iterable<string>): void {
    this.fences.set(viewer, { person, projects: new Set(projects) })
  }

  /** Every principal and viewer to check: people, integrations, fenced credentials. */
  viewers(): string[] {
    return [...this.roles.keys(), ...this.integrations, ...this.fences.keys()]
  }

  /** The person or integration behind a viewer. */
  actorOf(who: string): string {
    return this.fences.get(who)?.person ?? who
  }

  /** The project an item belongs to: itself for a project; null for none. */
  projectOf(key: string): string | null {
    if (this.projects.has(key)) return key
    const owned =
      this.canvases.get(key)?.project ?? this.tasks.get(key)?.project ?? this.okrs.get(key)?.project
    if (owned !== undefined) return owned
    const comment = this.comments.get(key)
    return comment ? this.projectOf(comment.on) : null
  }

  /** Whether a viewer's fence lets it open the item: always, unfenced; else its project's in. */
  inFence(who: string, key: string): boolean {
    const fence = this.fences.get(who)
    if (!fence) return true
    const project = this.projectOf(key)
    return project !== null && fence.projects.has(project)
  }

  /**
   * The items the principal may open whose own text contains the word, or whose project does
   * when the principal may open that project too.
   */
  searchHits(who: string, word: string): string[] {
    const has = (key: string | null) =>
      key !== null &&
      (this.text.get(key) ?? '')
        .toLowerCase()
        .split(/[^a-z0-9]+/)
        .includes(word)
    return [...this.text.keys()]
      .filter((key) => {
        const project = this.projectOf(key)
        const inherited = project !== null && has(project) && this.canOpen(who, project)
        return (has(key) || inherited) && this.canOpen(who, key)
      })
      .sort()
  }

  /** A person who is not a guest. Integrations are never members. */
  isMember(who: string): boolean {
    const role = this.roles.get(this.actorOf(who))
    return role !== undefined && role !== 'guest'
  }

  teamsOf(who: string): string[] {
    const actor = this.actorOf(who)
    return [...this.teams].filter(([, members]) => members.has(actor)).map(([team]) => team)
  }

  /** Belongs to the project, directly or through a team. */
  inProject(who: string, project: string): boolean {
    const members = this.projects.get(project)?.members
    return (
      !!members &&
      (members.has(this.actorOf(who)) || this.teamsOf(who).some((team) => members.has(team)))
    )
  }

  canOpenProject(who: string, key: string): boolean {
    return this.#openProject(this.actorOf(who), key) && this.inFence(who, key)
  }

  // The person's own rule for a project, before any fence.
  #openProject(who: string, key: string): boolean {
    const project = this.projects.get(key)
    if (!project) return false
    return project.visibility === 'workspace'
      ? this.isMember(who) || this.inProject(who, key)
      : this.inProject(who, key)
  }

  canOpenCanvas(who: string, key: string): boolean {
    return this.#openCanvas(this.actorOf(who), key) && this.inFence(who, key)
  }

  #openCanvas(who: string, key: string): boolean {
    const canvas = this.canvases.get(key)
    if (!canvas) return false
    if (canvas.visibility === 'private') {
      return (
        canvas.owner === who ||
        canvas.shares.has(who) ||
        this.teamsOf(who).some((team) => canvas.shares.has(team))
      )
    }
    return canvas.project ? this.#openProject(who, canvas.project) : this.isMember(who)
  }

  canOpenTask(who: string, key: string): boolean {
    return this.#openTask(this.actorOf(who), key) && this.inFence(who, key)
  }

  #openTask(who: string, key: string): boolean {
    const task = this.tasks.get(key)
    if (!task) return false
    return (
      (task.project !== null && this.#openProject(who, task.project)) ||
      task.creator === who ||
      task.assignee === who
    )
  }

  canOpenOkr(who: string, key: string): boolean {
    return this.#openOkr(this.actorOf(who), key) && this.inFence(who, key)
  }

  #openOkr(who: string, key: string): boolean {
    const okr = this.okrs.get(key)
    if (!okr) return false
    if (okr.owner === who) return true
    return okr.visibility === 'workspace'
      ? this.isMember(who)
      : okr.team !== null && this.teamsOf(who).includes(okr.team)
  }

  canOpenComment(who: string, key: string): boolean {
    const comment = this.comments.get(key)
    return !!comment && this.canOpen(who, comment.on)
  }

  // People, teams and integrations are seen as the person sees them, whatever the fence.
  canSeePerson(who: string, person: string): boolean {
    const actor = this.actorOf(who)
    if (!this.roles.has(person)) return false
    if (this.isMember(actor) || actor === person) return true
    return [...this.projects.keys()].some(
      (project) => this.#openProject(actor, project) && this.inProject(person, project),
    )
  }

  canSeeTeam(who: string, team: string): boolean {
    return this.teams.has(team) && (this.isMember(who) || this.teamsOf(who).includes(team))
  }

  canSeeIntegration(who: string, integration: string): boolean {
    return (
      this.integrations.has(integration) &&
      (this.isMember(who) || this.actorOf(who) === integration)
    )
  }

  /** Anything by key. */
  canOpen(who: string, key: string): boolean {
    if (this.projects.has(key)) return this.canOpenProject(who, key)
    if (this.canvases.has(key)) return this.canOpenCanvas(who, key)
    if (this.tasks.has(key)) return this.canOpenTask(who, key)
    if (this.okrs.has(key)) return this.canOpenOkr(who, key)
    if (this.comments.has(key)) return this.canOpenComment(who, key)
    if (this.roles.has(key)) return this.canSeePerson(who, key)
    if (this.teams.has(key)) return this.canSeeTeam(who, key)
    if (this.integrations.has(key)) return this.canSeeIntegration(who, key)
    for (const [okr, { keyResults }] of this.okrs)
      if (keyResults.includes(key)) return this.canOpenOkr(who, okr)
    return false
  }

  /** Every key the rules cover. */
  allKeys(): string[] {
    return [
      ...this.projects.keys(),
      ...this.canvases.keys(),
      ...this.tasks.keys(),
      ...this.okrs.keys(),
      ...this.comments.keys(),
      ...this.roles.keys(),
      ...this.teams.keys(),
      ...[...this.okrs.values()].flatMap((o) => o.keyResults),
    ]
  }
}

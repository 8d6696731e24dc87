import type { World } from './oracle.ts'

/*
 * Why a resource is open, written straight from the table of docs/permissions.md over the
 * oracle's bundle keys, independently of the service's ACL arrays: each rule that opens the
 * resource to `who` is one reason, as `kind` or `kind:via-key`. Sorted, so order never matters.
 */

/** Every reason that opens `key` to `who`; empty when nothing does. */
export function oracleReasons(world: World, who: string, key: string): string[] {
  return [...new Set(reasonsOf(world, who, key))].sort()
}

function reasonsOf(world: World, who: string, key: string): string[] {
  const member = world.isMember(who)
  const teams = world.teamsOf(who)
  const project = world.projects.get(key)
  if (project) {
    return [
      ...(member && project.visibility === 'workspace' ? ['workspace_member'] : []),
      ...(project.members.has(who) ? [`project_member:${key}`] : []),
      ...teams.filter((team) => project.members.has(team)).map((team) => `team_member:${team}`),
    ]
  }
  const canvas = world.canvases.get(key)
  if (canvas) {
    if (canvas.visibility === 'private')
      return [
        ...(canvas.owner === who ? ['owner'] : []),
        ...(canvas.shares.has(who) ? ['shared_with'] : []),
        ...teams.filter((team) => canvas.shares.has(team)).map((team) => `team_member:${team}`),
      ]
    if (canvas.project === null) return member ? ['workspace_member'] : []
    return reasonsOf(world, who, canvas.project)
  }
  const task = world.tasks.get(key)
  if (task) {
    return [
      ...(task.project === null ? [] : reasonsOf(world, who, task.project)),
      ...(task.creator === who ? ['creator'] : []),
      ...(task.assignee === who ? ['assignee'] : []),
    ]
  }
  const okr = world.okrs.get(key)
  if (okr) {
    return [
      ...(okr.visibility === 'workspace' && member ? ['workspace_member'] : []),
      ...(okr.owner === who ? ['owner'] : []),
      ...(okr.visibility === 'private' && okr.team !== null && teams.includes(okr.team)
        ? [`objective_team:${okr.team}`]
        : []),
    ]
  }
  const comment = world.comments.get(key)
  if (comment) return reasonsOf(world, who, comment.on).length > 0 ? [`parent:${comment.on}`] : []
  for (const [objective, { keyResults }] of world.okrs)
    if (keyResults.includes(key))
      return reasonsOf(world, who, objective).length > 0 ? [`parent:${objective}`] : []
  if (world.roles.has(key)) {
    if (member) return ['workspace_member']
    return [
      ...(key === who ? ['self'] : []),
      ...[...world.projects.keys()]
        .filter((p) => world.inProject(who, p) && world.inProject(key, p))
        .map((p) => `collaborator:${p}`),
    ]
  }
  if (world.teams.has(key)) {
    if (member) return ['workspace_member']
    return teams.includes(key) ? [`team_member:${key}`] : []
  }
  return []
}

/**
 * Reasons (`kind` or `kind:via`) as an asker's credential may see them: a `via` the asker cannot
 * open is dropped from its own reasons (the kind stays, once) and drops another person's reason
 * whole (docs/permissions.md, "Why a resource is open").
 */
export function reasonsSeenBy(
  world: World,
  asker: string,
  reasons: readonly string[],
  aboutOther: boolean,
): string[] {
  const seen = new Set<string>()
  for (const reason of reasons) {
    const [kind, via] = reason.split(':') as [string, string | undefined]
    if (via === undefined || world.canOpen(asker, via)) seen.add(reason)
    else if (!aboutOther) seen.add(kind)
  }
  return [...seen].sort()
}

import type { World } from './oracle.ts'

/*
 * What the API must answer to a write that shapes a workspace (projects, their members, teams),
 * written straight from docs/permissions.md, "Who may change a project", "Who may change
 * teams" and "Administering people", over the oracle's world: plain code, no tokens, no SQL. `applied` says how the world
 * changes when the answer is a success.
 */

/** A write to try, by world keys. */
export type ShapingWrite =
  | { op: 'createProject'; actor: string; key: string; private: boolean }
  | { op: 'setVisibility'; actor: string; project: string; private: boolean }
  | { op: 'setOwner'; actor: string; project: string; person: string }
  | { op: 'addMember'; actor: string; project: string; member: string }
  | { op: 'removeMember'; actor: string; project: string; member: string }
  | { op: 'createTeam'; actor: string; key: string }
  | { op: 'addTeamMember' | 'removeTeamMember'; actor: string; team: string; person: string }
  | { op: 'setRole'; actor: string; person: string; role: Role }

type Role = 'owner' | 'admin' | 'member' | 'guest'

/** The status the API must answer, and the change to the world when it is a success. */
export interface Expected {
  status: number
  apply?: (world: World) => void
}

const isAdmin = (world: World, who: string) =>
  world.roles.get(who) === 'owner' || world.roles.get(who) === 'admin'

const isPerson = (world: World, who: string) => world.roles.has(who)

// A project's owner and the workspace's owners and admins decide who may open it.
const stewardsAccess = (world: World, who: string, project: string) =>
  isPerson(world, who) && (world.projects.get(project)?.owner === who || isAdmin(world, who))

const canSee = (world: World, who: string, principal: string) =>
  world.roles.has(principal)
    ? world.canSeePerson(who, principal)
    : world.teams.has(principal)
      ? world.canSeeTeam(who, principal)
      : world.canSeeIntegration(who, principal)

/**
 * The answer the rules give, judged on a copy of the world where a change must leave the
 * project's owner and the caller able to open it.
 */
export function expectedAnswer(world: World, write: ShapingWrite): Expected {
  const { actor } = write
  switch (write.op) {
    case 'createProject': {
      if (!isPerson(world, actor) || !world.isMember(actor)) return { status: 403 }
      return {
        status: 201,
        apply: (w) => {
          w.projects.set(write.key, {
            visibility: write.private ? 'private' : 'workspace',
            owner: actor,
            members: new Set([actor]),
          })
          w.text.set(write.key, `${write.key} `)
        },
      }
    }
    case 'createTeam':
      if (!isPerson(world, actor) || !isAdmin(world, actor)) return { status: 403 }
      return { status: 201, apply: (w) => w.teams.set(write.key, new Set()) }
    case 'addTeamMember':
    case 'removeTeamMember': {
      if (!world.canSeeTeam(actor, write.team)) return { status: 404 }
      if (!world.canSeePerson(actor, write.person)) return { status: 404 }
      if (!isPerson(world, actor) || !isAdmin(world, actor)) return { status: 403 }
      const members = world.teams.get(write.team) as Set<string>
      if (write.op === 'removeTeamMember' && !members.has(write.person)) return { status: 404 }
      return {
        status: 200,
        apply: (w) =>
          write.op === 'addTeamMember'
            ? w.teams.get(write.team)?.add(write.person)
            : w.teams.get(write.team)?.delete(write.person),
      }
    }
    case 'setRole': {
      if (!isPerson(world, actor) || !isAdmin(world, actor)) return { status: 403 }
      const from = world.roles.get(write.person) as Role
      if (from === write.role) return { status: 200 }
      const powerful = (role: Role) => role === 'owner' || role === 'admin'
      if ((powerful(from) || powerful(write.role)) && world.roles.get(actor) !== 'owner')
        return { status: 403 }
      const owners = [...world.roles.values()].filter((role) => role === 'owner').length
      if (from === 'owner' && owners <= 1) return { status: 409 }
      return { status: 200, apply: (w) => w.roles.set(write.person, write.role) }
    }
    default:
      return projectAnswer(world, write)
  }
}

function projectAnswer(world: World, write: Extract<ShapingWrite, { project: string }>): Expected {
  const { actor, project } = write
  if (!world.canOpenProject(actor, project)) return { status: 404 }
  const other =
    write.op === 'setOwner' ? write.person : write.op === 'setVisibility' ? null : write.member
  if (other !== null && !canSee(world, actor, other)) return { status: 404 }
  if (!stewardsAccess(world, actor, project)) return { status: 403 }
  const state = world.projects.get(project) as {
    visibility: 'workspace' | 'private'
    owner: string
    members: Set<string>
  }
  let change: (p: typeof state) => void
  switch (write.op) {
    case 'setVisibility': {
      const visibility = write.private ? 'private' : 'workspace'
      if (visibility === state.visibility) return { status: 200 }
      change = (p) => {
        p.visibility = visibility
      }
      break
    }
    case 'setOwner':
      if (write.person === state.owner) return { status: 200 }
      change = (p) => {
        p.owner = write.person
      }
      break
    case 'addMember':
      if (state.members.has(write.member)) return { status: 200 }
      return { status: 200, apply: (w) => w.projects.get(project)?.members.add(write.member) }
    case 'removeMember':
      if (!state.members.has(write.member)) return { status: 404 }
      change = (p) => {
        p.members.delete(write.member)
      }
      break
  }
  // Judge the change on the world as it would be: both must still open the project.
  const before = { ...state, members: new Set(state.members) }
  change(state)
  const stillOpen =
    world.canOpenProject(state.owner, project) && world.canOpenProject(actor, project)
  world.projects.set(project, before)
  if (!stillOpen) return { status: 422 }
  return {
    status: 200,
    apply: (w) => {
      const p = w.projects.get(project)
      if (p) change(p)
    },
  }
}

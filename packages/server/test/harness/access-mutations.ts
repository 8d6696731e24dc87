import fc from 'fast-check'
import type { Kysely } from 'kysely'
import type { Database } from '../../src/db/database.ts'
import {
  setCanvasVisibility,
  shareCanvas,
  unshareCanvas,
} from './access-changes/canvas-access.commands.ts'
import { setRole } from './access-changes/people.commands.ts'
import {
  addProjectMember,
  removeProjectMember,
  setProjectVisibility,
} from './access-changes/project-access.commands.ts'
import { moveTask, reassignTask } from './access-changes/task-placement.commands.ts'
import { addTeamMember, removeTeamMember } from './access-changes/team-membership.commands.ts'
import type { World } from './oracle.ts'

/** A change to who may open what, with indexes taken modulo what exists. */
export type Mutation =
  | {
      op: 'addProjectMember' | 'share'
      target: number
      member: number
      kind: 'person' | 'team' | 'integration'
    }
  | { op: 'removeProjectMember' | 'unshare'; target: number; member: number }
  | { op: 'setProjectVisibility' | 'setCanvasVisibility'; target: number; private: boolean }
  | { op: 'addTeamMember' | 'removeTeamMember'; target: number; member: number }
  | { op: 'setRole'; target: number; role: 'owner' | 'admin' | 'member' | 'guest' }
  | { op: 'reassign'; target: number; member: number | null }
  | { op: 'move'; target: number; project: number | null }

const kind = fc.constantFrom('person' as const, 'team' as const, 'integration' as const)

/** Random access changes. */
export const mutationArbitrary: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({
    op: fc.constantFrom('addProjectMember' as const, 'share' as const),
    target: fc.nat(),
    member: fc.nat(),
    kind,
  }),
  fc.record({
    op: fc.constantFrom('removeProjectMember' as const, 'unshare' as const),
    target: fc.nat(),
    member: fc.nat(),
  }),
  fc.record({
    op: fc.constantFrom('setProjectVisibility' as const, 'setCanvasVisibility' as const),
    target: fc.nat(),
    private: fc.boolean(),
  }),
  fc.record({
    op: fc.constantFrom('addTeamMember' as const, 'removeTeamMember' as const),
    target: fc.nat(),
    member: fc.nat(),
  }),
  fc.record({
    op: fc.constant('setRole' as const),
    target: fc.nat(),
    role: fc.constantFrom('owner' as const, 'admin' as const, 'member' as const, 'guest' as const),
  }),
  fc.record({
    op: fc.constant('reassign' as const),
    target: fc.nat(),
    member: fc.option(fc.nat(), { nil: null }),
  }),
  fc.record({
    op: fc.constant('move' as const),
    target: fc.nat(),
    project: fc.option(fc.nat(), { nil: null }),
  }),
)

/** Applies a change through the domain commands (one transaction) and to the oracle's world. */
export async function applyMutation(
  db: Kysely<Database>,
  ws: string,
  ids: Record<string, string>,
  world: World,
  m: Mutation,
  at: Date,
): Promise<void> {
  const pick = <T>(list: T[], i: number | null): T | undefined =>
    i === null || list.length === 0 ? undefined : list[i % list.length]
  const id = (key: string) => ids[key] as string
  const people = [...world.roles.keys()].sort()
  const teams = [...world.teams.keys()].sort()
  const principalsOf = (k: 'person' | 'team' | 'integration') =>
    k === 'person' ? people : k === 'team' ? teams : [...world.integrations].sort()
  await db.transaction().execute(async (trx) => {
    switch (m.op) {
      case 'addProjectMember':
      case 'share': {
        const member = pick(principalsOf(m.kind), m.member)
        if (!member) return
        if (m.op === 'addProjectMember') {
          const project = pick([...world.projects.keys()].sort(), m.target)
          if (!project) return
          await addProjectMember(trx, ws, id(project), id(member))
          world.projects.get(project)?.members.add(member)
        } else {
          const canvas = pick([...world.canvases.keys()].sort(), m.target)
          if (!canvas) return
          await shareCanvas(trx, ws, id(canvas), id(member))
          world.canvases.get(canvas)?.shares.add(member)
        }
        return
      }
      case 'removeProjectMember': {
        const project = pick([...world.projects.keys()].sort(), m.target)
        const member =
          project && pick([...(world.projects.get(project)?.members ?? [])].sort(), m.member)
        if (!project || !member) return
        await removeProjectMember(trx, ws, id(project), id(member))
        world.projects.get(project)?.members.delete(member)
        return
      }
      case 'unshare': {
        const canvas = pick([...world.canvases.keys()].sort(), m.target)
        const member =
          canvas && pick([...(world.canvases.get(canvas)?.shares ?? [])].sort(), m.member)
        if (!canvas || !member) return
        await unshareCanvas(trx, ws, id(canvas), id(member))
        world.canvases.get(canvas)?.shares.delete(member)
        return
      }
      case 'setProjectVisibility': {
        const project = pick([...world.projects.keys()].sort(), m.target)
        if (!project) return
        await setProjectVisibility(trx, ws, id(project), m.private ? 'private' : 'workspace', at)
        ;(world.projects.get(project) as { visibility: string }).visibility = m.private
          ? 'private'
          : 'workspace'
        return
      }
      case 'setCanvasVisibility': {
        const canvas = pick([...world.canvases.keys()].sort(), m.target)
        if (!canvas) return
        await setCanvasVisibility(trx, ws, id(canvas), m.private ? 'private' : 'project', at)
        ;(world.canvases.get(canvas) as { visibility: string }).visibility = m.private
          ? 'private'
          : 'project'
        return
      }
      case 'addTeamMember':
      case 'removeTeamMember': {
        const team = pick(teams, m.target)
        const person = pick(people, m.member)
        if (!team || !person) return
        if (m.op === 'addTeamMember') {
          await addTeamMember(trx, ws, id(team), id(person))
          world.teams.get(team)?.add(person)
        } else {
          await removeTeamMember(trx, ws, id(team), id(person))
          world.teams.get(team)?.delete(person)
        }
        return
      }
      case 'setRole': {
        const person = pick(people, m.target)
        if (!person) return
        await setRole(trx, ws, id(person), m.role, at)
        world.roles.set(person, m.role)
        return
      }
      case 'reassign': {
        const task = pick([...world.tasks.keys()].sort(), m.target)
        if (!task) return
        const assignee = pick(people, m.member) ?? null
        await reassignTask(trx, ws, id(task), assignee ? id(assignee) : null, at)
        ;(world.tasks.get(task) as { assignee: string | null }).assignee = assignee
        return
      }
      case 'move': {
        const task = pick(
          [...world.tasks]
            .filter(([, t]) => t.parent === null)
            .map(([k]) => k)
            .sort(),
          m.target,
        )
        if (!task) return
        const project = pick([...world.projects.keys()].sort(), m.project) ?? null
        await moveTask(trx, ws, id(task), project ? id(project) : null, at)
        const moved = [task]
        for (let i = 0; i < moved.length; i++) {
          for (const [key, t] of world.tasks) if (t.parent === moved[i]) moved.push(key)
        }
        for (const key of moved)
          (world.tasks.get(key) as { project: string | null }).project = project
        return
      }
    }
  })
}

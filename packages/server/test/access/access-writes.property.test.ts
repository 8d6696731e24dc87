import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import fc from 'fast-check'
import { syncResourceIndex } from '../../src/access/resource-index.ts'
import type { Bundle } from '../../src/bundle/bundle.schema.ts'
import type { ImportResult } from '../../src/bundle/import-bundle.ts'
import { checkWorld } from '../harness/check-world.ts'
import { fenceArbitrary, importWithFence } from '../harness/fenced-viewers.ts'
import type { World } from '../harness/oracle.ts'
import { expectedAnswer, type ShapingWrite } from '../harness/oracle-writes.ts'
import { PROPERTY_RUNS, PROPERTY_SETTINGS } from '../harness/property-settings.ts'
import { client, startTestApp, type TestApp } from '../harness/test-app.ts'
import { worldArbitrary } from '../harness/world-arbitrary.ts'

/*
 * The writes that shape a workspace (projects, their members, teams, roles), through the API,
 * by random people and integrations of random workspaces: every answer is the one docs/permissions.md gives (oracle-writes.ts), and
 * after each one every principal's every list and record is what the oracle says, on the very
 * next request.
 */

let t: TestApp
before(async () => {
  t = await startTestApp()
})
after(() => t.close())

// An attempt, with indexes taken modulo what exists when it is made.
interface Attempt {
  op: ShapingWrite['op']
  actor: number
  target: number
  other: number
  kind: number
  private: boolean
}

const attemptArbitrary: fc.Arbitrary<Attempt> = fc.record({
  op: fc.constantFrom(
    'createProject' as const,
    'setVisibility' as const,
    'setOwner' as const,
    'addMember' as const,
    'addMember' as const,
    'removeMember' as const,
    'removeMember' as const,
    'createTeam' as const,
    'addTeamMember' as const,
    'removeTeamMember' as const,
    'setRole' as const,
  ),
  actor: fc.nat(),
  target: fc.nat(),
  other: fc.nat(),
  kind: fc.nat(),
  private: fc.boolean(),
})

// Every token of the world may also shape it: only the rules decide.
function shapingBundle(bundle: Bundle): Bundle {
  const more = (scopes: string[]) => [...scopes, 'project:write', 'people:write']
  return {
    ...bundle,
    api_keys: (bundle.api_keys ?? []).map((key) => ({ ...key, scopes: more(key.scopes) })),
    workspace_tokens: (bundle.workspace_tokens ?? []).map((token) => ({
      ...token,
      scopes: more(token.scopes),
    })),
  }
}

// The attempt as a write by world keys; new projects and teams get keys `made<n>`.
function writeOf(world: World, attempt: Attempt, n: number): ShapingWrite | null {
  const pick = <T>(list: readonly T[], i: number) =>
    list.length === 0 ? undefined : list[i % list.length]
  const people = [...world.roles.keys()].sort()
  const actor = pick([...people, ...[...world.integrations].sort()], attempt.actor)
  const project = pick([...world.projects.keys()].sort(), attempt.target)
  const team = pick([...world.teams.keys()].sort(), attempt.target)
  const person = pick(people, attempt.other)
  const principals = [people, [...world.teams.keys()].sort(), [...world.integrations].sort()]
  const member = pick(principals[attempt.kind % 3] as string[], attempt.other)
  if (!actor) return null
  switch (attempt.op) {
    case 'createProject':
      return { op: 'createProject', actor, key: `made${n}`, private: attempt.private }
    case 'createTeam':
      return { op: 'createTeam', actor, key: `made${n}` }
    case 'setVisibility':
      return project ? { op: 'setVisibility', actor, project, private: attempt.private } : null
    case 'setOwner':
      return project && person ? { op: 'setOwner', actor, project, person } : null
    case 'addMember':
      return project && member ? { op: 'addMember', actor, project, member } : null
    case 'removeMember': {
      // Mostly a member the project has, so that removals happen.
      const members = project ? [...(world.projects.get(project)?.members ?? [])].sort() : []
      const removed = attempt.private ? pick(members, attempt.other) : member
      return project && removed ? { op: 'removeMember', actor, project, member: removed } : null
    }
    case 'addTeamMember':
    case 'removeTeamMember':
      return team && person ? { op: attempt.op, actor, team, person } : null
    case 'setRole': {
      const roles = ['owner', 'admin', 'member', 'guest'] as const
      const role = roles[attempt.kind % roles.length] as (typeof roles)[number]
      return person ? { op: 'setRole', actor, person, role } : null
    }
  }
}

// Sends the write as its actor's token; answers its status and, for a creation, the new id.
async function send(
  result: ImportResult,
  write: ShapingWrite,
): Promise<{ status: number; body: string; id?: string }> {
  const api = client(
    t.app,
    result.api_keys[`${write.actor}-key`]?.token ??
      result.workspace_tokens[`${write.actor}-key`]?.token,
  )
  const id = (key: string) => result.ids[key] as string
  const memberField = (key: string) =>
    id(key).startsWith('usr_')
      ? 'person_id'
      : id(key).startsWith('team_')
        ? 'team_id'
        : 'integration_id'
  const reply = await (() => {
    switch (write.op) {
      case 'createProject':
        return api.post('/v1/projects', {
          name: write.key,
          visibility: write.private ? 'private' : 'workspace',
        })
      case 'createTeam':
        return api.post('/v1/teams', { name: `Team ${write.key}` })
      case 'setVisibility':
        return api.patch(`/v1/projects/${id(write.project)}`, {
          visibility: write.private ? 'private' : 'workspace',
        })
      case 'setOwner':
        return api.patch(`/v1/projects/${id(write.project)}`, { owner_id: id(write.person) })
      case 'addMember':
        return api.post(`/v1/projects/${id(write.project)}/members`, {
          [memberField(write.member)]: id(write.member),
        })
      case 'removeMember':
        return api.delete(`/v1/projects/${id(write.project)}/members/${id(write.member)}`)
      case 'addTeamMember':
        return api.post(`/v1/teams/${id(write.team)}/members`, { person_id: id(write.person) })
      case 'removeTeamMember':
        return api.delete(`/v1/teams/${id(write.team)}/members/${id(write.person)}`)
      case 'setRole':
        return api.patch(`/v1/people/${id(write.person)}`, { role: write.role })
    }
  })()
  return { status: reply.status, body: reply.body, id: (reply.json as { id?: string })?.id }
}

test('shaping writes answer as the rules say, and every answer after them follows the oracle', async () => {
  await fc.assert(
    fc.asyncProperty(
      worldArbitrary(),
      fc.array(attemptArbitrary, { minLength: 1, maxLength: 6 }),
      fenceArbitrary,
      async (bundle, attempts, fence) => {
        // A fenced key keeps its fence while the workspace changes under it.
        const { result, world } = await importWithFence(t, shapingBundle(bundle), fence)
        for (const [n, attempt] of attempts.entries()) {
          const write = writeOf(world, attempt, n)
          if (!write) continue
          const expected = expectedAnswer(world, write)
          const answer = await send(result, write)
          assert.equal(answer.status, expected.status, `${JSON.stringify(write)}: ${answer.body}`)
          if (answer.id && 'key' in write) result.ids[write.key] = answer.id
          expected.apply?.(world)
          await checkWorld(t.app, world, result, { pageSizes: [20] })
        }
        // The change feed of every viewer holds exactly the changes whose subject it may open
        // now: a project by the project rules, a team or a person by the directory's, never to
        // a key fenced to projects (docs/changes.md).
        const keyOf = new Map(Object.entries(result.ids).map(([key, id]) => [id, key]))
        for (const who of world.viewers()) {
          const token = result.api_keys[`${who}-key`] ?? result.workspace_tokens[`${who}-key`]
          // Followed until caught up: a page may stop short of the head (docs/changes.md).
          const seen = new Set<string>()
          let page = await client(t.app, token?.token).get('/v1/changes?from=start&limit=200')
          for (;;) {
            assert.equal(page.status, 200, page.body)
            for (const change of page.json.data) seen.add(change.resource_id)
            if (page.json.data.length === 0) break
            page = await client(t.app, token?.token).get(
              `/v1/changes?limit=200&cursor=${encodeURIComponent(page.json.next_cursor)}`,
            )
          }
          const changed = await t.db.db
            .selectFrom('activity')
            .select(['subject_id', 'subject_type'])
            .where('workspace_id', '=', result.workspace_id)
            .where('subject_type', 'in', ['project', 'team', 'person'])
            // The writes of this run: the feed keeps recent changes only, and the bundle's are old.
            .where('created_at', '>=', new Date(t.clock.now().getTime() - 86_400_000))
            .distinct()
            .execute()
          // The activity stream shows the same subjects of the directory (whose entries mention
          // nothing else, so the subject alone decides them).
          const inStream = new Set<string>()
          let stream = await client(t.app, token?.token).get('/v1/activity?limit=100')
          for (;;) {
            assert.equal(stream.status, 200, stream.body)
            for (const entry of stream.json.data) inStream.add(entry.subject_id)
            if (!stream.json.next_cursor) break
            stream = await client(t.app, token?.token).get(
              `/v1/activity?limit=100&cursor=${encodeURIComponent(stream.json.next_cursor)}`,
            )
          }
          for (const { subject_id: id, subject_type: type } of changed) {
            const key = keyOf.get(id) as string
            const fenced = world.fences.has(who)
            const open =
              type === 'project'
                ? world.canOpenProject(who, key)
                : !fenced && world.canOpen(who, key)
            assert.equal(seen.has(id), open, `${who} and the changes of ${type} ${key}`)
            if (type !== 'project')
              assert.equal(inStream.has(id), open, `${who} and the activity of ${type} ${key}`)
          }
        }
        // The index stays a pure function of the source rows: recompiling it changes nothing.
        const index = () =>
          t.db.db
            .selectFrom('resource_index')
            .select(['id', 'ws_visible', 'acl', 'project_id'])
            .where('workspace_id', '=', result.workspace_id)
            .orderBy('id')
            .execute()
        const before = await index()
        await syncResourceIndex(t.db.db, result.workspace_id, { all: true })
        assert.deepEqual(await index(), before)
      },
    ),
    { numRuns: PROPERTY_RUNS, ...PROPERTY_SETTINGS },
  )
})

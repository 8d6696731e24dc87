import assert from 'node:assert/strict'
import type { FastifyInstance } from 'fastify'
import type { ImportResult } from '../../src/bundle/import-bundle.ts'
import type { World } from './oracle.ts'
import { allPages, client } from './test-app.ts'

/** What to compare, and how thoroughly. */
export interface CheckOptions {
  pageSizes: number[]
  /** Ids of other workspaces: none may ever appear. */
  foreignIds?: Set<string>
}

// biome-ignore lint/suspicious/noExplicitAny: records are checked field by field
type Json = any

/**
 * Compares every list and record endpoint, for every principal of a world, with the oracle: no
 * item the oracle hides, none it shows missing, at every page size; link fields exactly the
 * visible neighbours; hidden and unknown ids answered with the same 404.
 */
export async function checkWorld(
  app: FastifyInstance,
  world: World,
  result: ImportResult,
  options: CheckOptions,
): Promise<void> {
  const keyOf = new Map(Object.entries(result.ids).map(([key, id]) => [id, key]))
  const id = (key: string | null) => (key === null ? null : (result.ids[key] as string))
  const toKey = (value: string) => {
    assert.ok(!options.foreignIds?.has(value), `an id of another workspace leaked: ${value}`)
    const key = keyOf.get(value)
    assert.ok(key, `unknown id in a response: ${value}`)
    return key
  }
  const tokens = { ...result.api_keys, ...result.workspace_tokens }
  const principals = world.viewers()
  const unknown404 = await client(app, tokens[`${principals[0]}-key`]?.token).get(
    '/v1/resources/tsk_00000000000000000000000000',
  )

  for (const who of principals) {
    const api = client(app, tokens[`${who}-key`]?.token)
    const lists: [string, Iterable<string>, (key: string) => boolean][] = [
      ['/v1/projects', world.projects.keys(), (k) => world.canOpenProject(who, k)],
      ['/v1/canvases', world.canvases.keys(), (k) => world.canOpenCanvas(who, k)],
      ['/v1/tasks', world.tasks.keys(), (k) => world.canOpenTask(who, k)],
      ['/v1/okrs', world.okrs.keys(), (k) => world.canOpenOkr(who, k)],
      ['/v1/people', world.roles.keys(), (k) => world.canSeePerson(who, k)],
      ['/v1/teams', world.teams.keys(), (k) => world.canSeeTeam(who, k)],
    ]
    for (const [url, keys, visible] of lists) {
      const expected = [...keys].filter(visible).sort()
      for (const size of options.pageSizes) {
        const items = await allPages(api, url, size)
        assert.deepEqual(
          items.map((item: Json) => toKey(item.id)).sort(),
          expected,
          `${who} ${url} limit=${size}`,
        )
      }
    }

    for (const key of world.allKeys()) {
      const reply = await api.get(`/v1/resources/${id(key)}`)
      if (!world.canOpen(who, key)) {
        assert.equal(reply.status, 404, `${who} must not open ${key}`)
        assert.deepEqual(
          { ...reply.json, request_id: null },
          { ...unknown404.json, request_id: null },
          'hidden = unknown',
        )
        continue
      }
      assert.equal(reply.status, 200, `${who} may open ${key}: ${reply.body}`)
      assert.deepEqual(
        linksOf(reply.json, toKey),
        expectedLinks(world, who, key),
        `${who} links of ${key}`,
      )
      if (world.comments.has(key) || world.roles.has(key) || world.teams.has(key)) continue
      const comments = await allPages(api, `/v1/resources/${id(key)}/comments`, 20)
      const expectedComments = [...world.comments]
        .filter(([, c]) => c.on === key)
        .map(([k]) => k)
        .sort()
      assert.deepEqual(
        comments.map((c: Json) => toKey(c.id)).sort(),
        expectedComments,
        `${who} comments on ${key}`,
      )
      for (const link of await allPages(api, `/v1/resources/${id(key)}/links`, 20)) {
        assert.ok(
          world.canOpen(who, toKey(link.id)) || world.canSeeIntegration(who, toKey(link.id)),
          `${who}: link ${link.id} of ${key} is hidden`,
        )
      }
    }
  }
}

// The link fields of a record, mapped to bundle keys, with a field's absence kept as null.
function linksOf(record: Json, toKey: (id: string) => string): Record<string, unknown> {
  const one = (value: string | null | undefined) => (value ? toKey(value) : null)
  const many = (values: string[] | undefined) => (values ?? []).map(toKey).sort()
  switch (record.type) {
    case 'project':
      return {
        owner: one(record.owner_id),
        members: many(record.member_ids),
        teams: many(record.team_ids),
      }
    case 'canvas':
      return {
        project: one(record.project_id),
        owner: one(record.owner_id),
        links: record.links.map(toKey),
      }
    case 'task':
      return {
        project: one(record.project_id),
        parent: one(record.parent_id),
        canvas: one(record.canvas_id),
        assignee: one(record.assignee_id),
        creator: one(record.creator_id),
      }
    case 'okr':
      return {
        owner: one(record.owner_id),
        team: one(record.team_id),
        project: one(record.project_id),
      }
    case 'comment':
      return {
        on: one(record.resource_id),
        parent: one(record.parent_id),
        author: one(record.author_id),
      }
    case 'person':
      return { teams: many(record.teams), email: record.email !== null }
    case 'team':
      return { members: many(record.member_ids) }
    case 'key_result':
      return { okr: one(record.objective_id) }
    default:
      throw new Error(`unexpected record type ${record.type}`)
  }
}

// What the oracle says those link fields must be: every neighbour the principal can see, no other.
function expectedLinks(world: World, who: string, key: string): Record<string, unknown> {
  const seen = (other: string | null) =>
    other !== null && (world.canOpen(who, other) || world.canSeeIntegration(who, other))
      ? other
      : null
  const project = world.projects.get(key)
  if (project) {
    const people = [...world.roles.keys()].filter(
      (person) => world.inProject(person, key) && world.canSeePerson(who, person),
    )
    const teams = [...project.members].filter((m) => world.teams.has(m) && world.canSeeTeam(who, m))
    return { owner: seen(project.owner), members: people.sort(), teams: teams.sort() }
  }
  const canvas = world.canvases.get(key)
  if (canvas)
    return {
      project: seen(canvas.project),
      owner: seen(canvas.owner),
      links: canvas.links.filter((l) => world.canOpen(who, l)),
    }
  const task = world.tasks.get(key)
  if (task) {
    return {
      project: seen(task.project),
      parent: seen(task.parent),
      canvas: seen(task.canvas),
      assignee: seen(task.assignee),
      creator: seen(task.creator),
    }
  }
  const okr = world.okrs.get(key)
  if (okr) return { owner: seen(okr.owner), team: seen(okr.team), project: seen(okr.project) }
  const comment = world.comments.get(key)
  if (comment) return { on: comment.on, parent: comment.parent, author: seen(comment.author) }
  if (world.roles.has(key)) {
    return {
      teams: world
        .teamsOf(key)
        .filter((team) => world.canSeeTeam(who, team))
        .sort(),
      email: world.isMember(who),
    }
  }
  const team = world.teams.get(key)
  if (team) return { members: [...team].filter((person) => world.canSeePerson(who, person)).sort() }
  for (const [okrKey, o] of world.okrs) if (o.keyResults.includes(key)) return { okr: okrKey }
  throw new Error(`no expectation for ${key}`)
}

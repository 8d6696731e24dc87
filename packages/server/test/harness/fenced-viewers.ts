import assert from 'node:assert/strict'
import fc from 'fast-check'
import type { FastifyInstance } from 'fastify'
import type { Bundle } from '../../src/bundle/bundle.schema.ts'
import type { ImportResult } from '../../src/bundle/import-bundle.ts'
import { ALL_READ_SCOPES, importOk } from './bundles.ts'
import { World } from './oracle.ts'
import type { TestApp } from './test-app.ts'

/*
 * A fenced key of a random person in a random world (docs/permissions.md, "Fenced credentials"),
 * so that every random-workspace check also runs for it: the oracle's answer for a fenced viewer
 * is the person's, restricted to the fence.
 */

/** Which person gets a fenced key, and which of the projects they can open it is fenced to. */
export interface FenceChoice {
  person: number
  picks: boolean[]
}

/** A random fence choice, to pass to `importWithFence`. */
export const fenceArbitrary: fc.Arbitrary<FenceChoice> = fc.record({
  person: fc.nat(),
  picks: fc.array(fc.boolean(), { maxLength: 12 }),
})

/** The viewer name (and `${name}-key` token) of the fenced key. */
export const FENCED_VIEWER = 'fenced~viewer'

/**
 * Imports the world and makes the chosen person a key fenced to some of the projects they can
 * open (at least one), through `POST /v1/api-keys` as a person would. The world gets the viewer,
 * and the result its token as `${FENCED_VIEWER}-key`. A person who can open no project gets none.
 */
export async function importWithFence(
  t: TestApp,
  bundle: Bundle,
  choice: FenceChoice,
  options?: Parameters<typeof importOk>[2],
): Promise<{ result: ImportResult; world: World }> {
  const people = bundle.people.map((p) => p.key)
  const person = people[choice.person % people.length] as string
  const minting = structuredClone(bundle)
  minting.api_keys = [
    ...(minting.api_keys ?? []),
    { key: `${person}-mint`, person, scopes: [...ALL_READ_SCOPES, 'token:manage'] },
  ]
  const result = await importOk(t.db.db, minting, options)
  const world = new World(bundle)
  await addFencedViewer(t.app, world, result, person, choice.picks)
  return { result, world }
}

async function addFencedViewer(
  app: FastifyInstance,
  world: World,
  result: ImportResult,
  person: string,
  picks: boolean[],
): Promise<void> {
  const open = [...world.projects.keys()].filter((p) => world.canOpenProject(person, p)).sort()
  if (open.length === 0) return
  const picked = open.filter((_, i) => picks[i] ?? false)
  const projects = picked.length > 0 ? picked : [open[0] as string]
  const reply = await app.inject({
    method: 'POST',
    url: '/v1/api-keys',
    headers: { authorization: `Bearer ${result.api_keys[`${person}-mint`]?.token}` },
    payload: {
      name: 'fenced',
      scopes: ALL_READ_SCOPES,
      project_ids: projects.map((key) => result.ids[key]),
    },
  })
  assert.equal(reply.statusCode, 201, reply.body)
  const key = reply.json() as { id: string; token: string }
  result.api_keys[`${FENCED_VIEWER}-key`] = { id: key.id, token: key.token }
  world.addFence(FENCED_VIEWER, person, projects)
}

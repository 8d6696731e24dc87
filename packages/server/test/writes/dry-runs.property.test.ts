import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import fc from 'fast-check'
import type { Bundle } from '../../src/bundle/bundle.schema.ts'
import { ALL_READ_SCOPES, ALL_WRITE_SCOPES, importOk } from '../harness/bundles.ts'
import { callToolInProcess } from '../harness/mcp-inject.ts'
import { World } from '../harness/oracle.ts'
import { PROPERTY_RUNS, PROPERTY_SETTINGS } from '../harness/property-settings.ts'
import { tableSnapshot } from '../harness/table-snapshot.ts'
import { client, startTestApp, type TestApp } from '../harness/test-app.ts'
import { worldArbitrary } from '../harness/world-arbitrary.ts'

// Dry runs on random workspaces, through REST and MCP: whatever the write (allowed, hidden,
// invalid), the dry run changes no table at all, and its answer agrees with the real write's.

let t: TestApp
before(async () => {
  t = await startTestApp()
})
after(() => t.close())

const KINDS = ['create_task', 'update_task', 'add_comment', 'okr_checkin'] as const

/** A random write: who, what, on which (possibly hidden) target, through which transport. */
const writeArbitrary = fc.record({
  person: fc.nat(),
  kind: fc.constantFrom(...KINDS),
  target: fc.nat(),
  valid: fc.boolean(),
  via: fc.constantFrom('rest', 'mcp'),
})

// One write as a REST request and as a tool call (the same input).
function request(kind: (typeof KINDS)[number], target: string | undefined, valid: boolean) {
  switch (kind) {
    case 'create_task':
      return {
        url: '/v1/tasks',
        args: { title: valid ? 'Random' : '', ...(target ? { project_id: target } : {}) },
      }
    case 'update_task':
      return {
        method: 'patch' as const,
        url: `/v1/tasks/${target ?? 'tsk_unknown'}`,
        args: valid ? { status: 'done', due: '2026-12-24' } : { title: '' },
        tool: { task_id: target ?? 'tsk_unknown' },
      }
    case 'add_comment':
      return {
        url: '/v1/comments',
        args: { resource_id: target ?? 'tsk_unknown', body: valid ? 'Random remark' : '' },
      }
    case 'okr_checkin':
      return {
        url: '/v1/okr/checkins',
        args: { key_result_id: target ?? 'kr_unknown', value: valid ? 7 : Number.NaN },
      }
  }
}

test('dry runs change no table and agree with the real write', async () => {
  await fc.assert(
    fc.asyncProperty(
      worldArbitrary('d'),
      fc.array(writeArbitrary, { minLength: 1, maxLength: 6 }),
      async (plain, writes) => {
        const bundle = withWriteKeys(plain)
        const result = await importOk(t.db.db, bundle)
        const world = new World(bundle)
        const pick = (keys: string[], n: number) =>
          keys.length === 0 ? undefined : result.ids[keys[n % keys.length] as string]
        for (const write of writes) {
          const person = bundle.people[write.person % bundle.people.length]
          if (!person) continue
          const token = result.api_keys[`${person.key}-writer`]?.token as string
          const targets = {
            create_task: [...world.projects.keys()],
            update_task: [...world.tasks.keys()],
            add_comment: [...world.tasks.keys(), ...world.projects.keys()],
            okr_checkin: [...world.okrs.values()].flatMap((okr) => okr.keyResults),
          }[write.kind]
          const made = request(write.kind, pick(targets, write.target), write.valid)
          const { url, args } = made
          const method: 'post' | 'patch' = 'method' in made && made.method ? made.method : 'post'
          const toolArgs = { ...('tool' in made ? made.tool : {}), ...args }
          const before = await tableSnapshot(t.db.db)
          if (write.via === 'rest') {
            const api = client(t.app, token)
            const dry = await api[method](`${url}?dry_run=true`, args)
            assert.deepEqual(await tableSnapshot(t.db.db), before, `${write.kind} dry run`)
            const real = await api[method](url, args)
            if (real.status < 300) assert.equal(dry.status, 200, dry.body)
            else assert.deepEqual([dry.status, dry.json.code], [real.status, real.json.code])
          } else {
            const dry = await callToolInProcess(t.app, token, write.kind, {
              ...toolArgs,
              dry_run: true,
            })
            assert.deepEqual(await tableSnapshot(t.db.db), before, `${write.kind} dry tool`)
            const real = await callToolInProcess(t.app, token, write.kind, toolArgs)
            assert.equal(dry.isError ?? false, real.isError ?? false, JSON.stringify(dry))
            if (real.isError) assert.deepEqual(dry.content, real.content)
            else assert.equal(dry.structuredContent?.dry_run, true)
          }
        }
      },
    ),
    { numRuns: Math.max(3, Math.floor(PROPERTY_RUNS / 3)), ...PROPERTY_SETTINGS },
  )
})

// Every person gets a key that may read and write everything its owner may.
function withWriteKeys(bundle: Bundle): Bundle {
  return {
    ...bundle,
    api_keys: [
      ...(bundle.api_keys ?? []),
      ...bundle.people.map((person) => ({
        key: `${person.key}-writer`,
        person: person.key,
        scopes: [...ALL_READ_SCOPES, ...ALL_WRITE_SCOPES],
      })),
    ],
  }
}

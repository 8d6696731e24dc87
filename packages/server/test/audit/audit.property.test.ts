import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import fc from 'fast-check'
import type { Bundle } from '../../src/bundle/bundle.schema.ts'
import { applyMutation, mutationArbitrary } from '../harness/access-mutations.ts'
import { ALL_READ_SCOPES, ALL_WRITE_SCOPES, importOk } from '../harness/bundles.ts'
import { markBundle, markersIn, typeOfKey, typesOfScopes } from '../harness/marked-world.ts'
import { World } from '../harness/oracle.ts'
import { PROPERTY_RUNS, PROPERTY_SETTINGS } from '../harness/property-settings.ts'
import { allPages, client, startTestApp, type TestApp } from '../harness/test-app.ts'
import { worldArbitrary } from '../harness/world-arbitrary.ts'

// The audit log on random workspaces: after random writes and random changes of access, every
// owner and admin sees every entry, whole when the oracle says they may open its resource now
// and its token reads that type, redacted otherwise, and never a marker of anything else.

let t: TestApp
before(async () => {
  t = await startTestApp()
})
after(() => t.close())

const write = fc.record({
  writer: fc.nat(),
  kind: fc.constantFrom('comment', 'task', 'complete', 'checkin', 'canvas'),
  target: fc.nat(),
})

test('audit entries are whole exactly when the reader may open their resource now, redacted otherwise', async () => {
  await fc.assert(
    fc.asyncProperty(
      worldArbitrary('a'),
      fc.array(write, { minLength: 1, maxLength: 10 }),
      fc.array(mutationArbitrary, { maxLength: 4 }),
      fc.array(fc.subarray(ALL_READ_SCOPES), { minLength: 7, maxLength: 7 }),
      async (plain, writes, mutations, readScopes) => {
        const { bundle, markers } = markBundle(plain)
        const auditors = bundle.people.filter((p) => p.role === 'owner' || p.role === 'admin')
        const scopesOf = new Map(auditors.map((p, i) => [p.key, readScopes[i % 7] as string[]]))
        const result = await importOk(t.db.db, withKeys(bundle, scopesOf))
        const world = new World(bundle)
        const ids: Record<string, string> = { ...result.ids }
        // What decides whether an audited resource is open: its own key, or its objective's.
        const decidedBy = new Map(Object.entries(ids).map(([key, id]) => [id, key]))
        const key = (name: string) => result.api_keys[name]?.token as string

        for (const w of writes) {
          const writer = bundle.people[w.writer % bundle.people.length]?.key as string
          const marker = `mk${markers.size}x`
          const done = await applyWrite(
            client(t.app, key(`${writer}-writer`)),
            w,
            world,
            ids,
            marker,
          )
          if (!done) continue
          markers.set(marker, done.key)
          decidedBy.set(done.id, done.key)
          if (done.kind === 'comment')
            world.comments.set(done.key, { on: done.on, parent: null, author: writer })
          if (done.kind === 'task') {
            world.tasks.set(done.key, {
              project: done.on,
              parent: null,
              assignee: null,
              creator: writer,
              canvas: null,
            })
          }
          ids[done.key] = done.id
        }
        for (const mutation of mutations)
          await applyMutation(t.db.db, result.workspace_id, ids, world, mutation, t.clock.now())

        for (const reader of auditors.map((p) => p.key)) {
          const api = client(t.app, key(`${reader}-audit`))
          const role = world.roles.get(reader)
          if (role !== 'owner' && role !== 'admin') {
            assert.equal((await api.get('/v1/audit')).status, 403)
            continue
          }
          const readable = typesOfScopes(scopesOf.get(reader) ?? [])
          const sees = (k: string) => world.canOpen(reader, k) && readable.has(typeOfKey(world, k))
          const entries = await allPages(api, '/v1/audit', 100)
          const rows = await t.db.db
            .selectFrom('audit_log')
            .select(['id', 'resource_id'])
            .where('workspace_id', '=', result.workspace_id)
            .execute()
          assert.equal(entries.length, rows.length, 'every entry is listed')
          const subjectOf = new Map(rows.map((row) => [row.id, row.resource_id as string]))
          for (const entry of entries) {
            const subject = subjectOf.get(entry.id) as string
            const decider = decidedBy.get(subject) as string
            assert.ok(decider, `an audited resource the test did not make: ${subject}`)
            const open = sees(decider)
            assert.equal(entry.redacted, !open, `${reader}: ${entry.action} of ${decider}`)
            if (open) continue
            assert.equal(entry.resource_id, null)
            assert.equal(entry.diff, null)
            assert.ok(entry.changed_fields.length > 0)
            const filtered = await api.get(`/v1/audit?resource_id=${subject}`)
            assert.equal(filtered.body, '{"data":[],"next_cursor":null}')
          }
          for (const marker of markersIn(JSON.stringify(entries))) {
            const named = markers.get(marker) as string
            assert.ok(sees(named), `${reader} reads the marker of ${named} in the audit log`)
          }
        }
      },
    ),
    { numRuns: PROPERTY_RUNS, ...PROPERTY_SETTINGS },
  )
})

// Every person may write; owners and admins read the audit log with their own read scopes.
function withKeys(bundle: Bundle, auditScopes: Map<string, string[]>): Bundle {
  return {
    ...bundle,
    api_keys: [
      ...bundle.people.map((p) => ({
        key: `${p.key}-writer`,
        person: p.key,
        scopes: [...ALL_READ_SCOPES, ...ALL_WRITE_SCOPES],
      })),
      ...[...auditScopes].map(([person, scopes]) => ({
        key: `${person}-audit`,
        person,
        scopes: [...scopes, 'audit:read'],
      })),
    ],
  }
}

interface Written {
  kind: 'comment' | 'task' | 'other'
  /** The bundle key the audited resource is judged by (a new comment or task gets one). */
  key: string
  id: string
  /** What a comment is on, or a task's project. */
  on: string
}

// One write through the API, carrying `marker` in its text; null when it was refused (the
// writer may not open the target, say).
async function applyWrite(
  api: ReturnType<typeof client>,
  w: { kind: string; target: number },
  world: World,
  ids: Record<string, string>,
  marker: string,
): Promise<Written | null> {
  const pick = (keys: Iterable<string>) => {
    const list = [...keys].sort()
    return list.length === 0 ? null : (list[w.target % list.length] as string)
  }
  switch (w.kind) {
    case 'comment': {
      const on = pick([...world.projects.keys(), ...world.tasks.keys(), ...world.okrs.keys()])
      if (!on) return null
      const reply = await api.post('/v1/comments', { resource_id: ids[on], body: `Note ${marker}` })
      return reply.status === 201
        ? { kind: 'comment', key: `c-${reply.json.id}`, id: reply.json.id, on }
        : null
    }
    case 'task': {
      const on = pick(world.projects.keys())
      if (!on) return null
      const reply = await api.post('/v1/tasks', { title: `New ${marker}`, project_id: ids[on] })
      return reply.status === 201
        ? { kind: 'task', key: `t-${reply.json.id}`, id: reply.json.id, on }
        : null
    }
    case 'complete': {
      const task = pick(world.tasks.keys())
      if (!task) return null
      const reply = await api.post(`/v1/tasks/${ids[task]}/complete`)
      return reply.status === 200
        ? { kind: 'other', key: task, id: ids[task] as string, on: task }
        : null
    }
    case 'checkin': {
      const okr = pick(world.okrs.keys())
      const kr = okr && world.okrs.get(okr)?.keyResults[0]
      if (!okr || !kr) return null
      const reply = await api.post('/v1/okr/checkins', {
        key_result_id: ids[kr],
        value: 5,
        note: `Check ${marker}`,
      })
      return reply.status === 201 ? { kind: 'other', key: okr, id: reply.json.id, on: okr } : null
    }
    default: {
      const canvas = pick(world.canvases.keys())
      if (!canvas) return null
      const reply = await api.patch(`/v1/canvases/${ids[canvas]}`, { title: `Board ${marker}` })
      return reply.status === 200
        ? { kind: 'other', key: canvas, id: ids[canvas] as string, on: canvas }
        : null
    }
  }
}

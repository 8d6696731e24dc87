import assert from 'node:assert/strict'
import { test } from 'node:test'
import { smallBundle } from '../../test/harness/bundles.ts'
import { demoBundle } from './demo/demo-bundle.ts'
import { scaledBundle } from './demo/scaled-bundle.ts'
import { validateBundle } from './validate-bundle.ts'

// biome-ignore lint/suspicious/noExplicitAny: the cases edit bundles freely
type Edit = (bundle: any) => void

function problemsOf(edit: Edit): { path: string; message: string }[] {
  const bundle = structuredClone(smallBundle())
  edit(bundle)
  const result = validateBundle(bundle)
  return result.ok ? [] : result.problems
}

const CASES: [string, Edit, string, RegExp][] = [
  [
    'broken reference',
    (b) => {
      b.tasks[0].assignee = 'nobody'
    },
    '/tasks/0/assignee',
    /"nobody", which is not defined/,
  ],
  [
    'reference of the wrong kind',
    (b) => {
      b.tasks[0].project = 'alice'
    },
    '/tasks/0/project',
    /which is a person; expected a project/,
  ],
  [
    'duplicate key',
    (b) => {
      b.teams[0].key = 'alice'
    },
    '/teams/0/key',
    /already used at \/people\/2\/key/,
  ],
  [
    'duplicate key inside OKRs',
    (b) => {
      b.okrs[0].key_results[0].key = 'o1'
    },
    '/okrs/0/key_results/0/key',
    /already used/,
  ],
  [
    'unknown role',
    (b) => {
      b.people[1].role = 'superuser'
    },
    '/people/1/role',
    /one of: owner, admin, member, guest/,
  ],
  [
    'bad date',
    (b) => {
      b.tasks[0].due = '2026-02-30'
    },
    '/tasks/0/due',
    /date \(YYYY-MM-DD\)/,
  ],
  [
    'bad timestamp',
    (b) => {
      b.comments[0].at = 'yesterday'
    },
    '/comments/0/at',
    /RFC 3339/,
  ],
  [
    'unknown visibility',
    (b) => {
      b.projects[0].visibility = 'public'
    },
    '/projects/0/visibility',
    /workspace, private/,
  ],
  [
    'unknown status',
    (b) => {
      b.tasks[0].status = 'closed'
    },
    '/tasks/0/status',
    /todo, in_progress, blocked, done/,
  ],
  [
    'unknown field',
    (b) => {
      b.tasks[0].priority = 1
    },
    '/tasks/0/priority',
    /not a known field/,
  ],
  [
    'missing field',
    (b) => {
      delete b.projects[0].owner
    },
    '/projects/0/owner',
    /is required/,
  ],
  [
    'wrong type',
    (b) => {
      b.okrs[0].key_results[0].target = '100'
    },
    '/okrs/0/key_results/0/target',
    /number/,
  ],
  [
    'duplicate email',
    (b) => {
      b.people[3].email = 'ALICE@example.test'
    },
    '/people/3/email',
    /already used by \/people\/2/,
  ],
  [
    'subtask in another project',
    (b) => {
      b.tasks.push({
        key: 'sub',
        title: 'Sub',
        status: 'todo',
        project: 'open',
        parent: 't-secret',
        creator: 'alice',
      })
    },
    '/tasks/2/project',
    /parent's/,
  ],
  [
    'task cycle',
    (b) => {
      b.tasks[0].parent = 't-secret'
      b.tasks[1].parent = 't-open'
      b.tasks[0].project = 'secret'
    },
    '/tasks/0/parent',
    /cycle/,
  ],
  [
    'own parent',
    (b) => {
      b.tasks[0].parent = 't-open'
    },
    '/tasks/0/parent',
    /own parent/,
  ],
  [
    'reply on another resource',
    (b) => {
      b.comments.push({
        key: 'm2',
        on: 't-open',
        author: 'bob',
        body: 'x',
        parent: 'm1',
        at: '2026-11-20T11:00:00Z',
      })
    },
    '/comments/1/on',
    /same resource/,
  ],
  [
    'comment on a person',
    (b) => {
      b.comments[0].on = 'bob'
    },
    '/comments/0/on',
    /expected a project or a canvas or a task or an okr/,
  ],
  [
    'member listed twice',
    (b) => {
      b.projects[0].members.push({ person: 'gus' })
    },
    '/projects/0/members/1',
    /twice/,
  ],
  [
    'malformed member',
    (b) => {
      b.projects[0].members.push({ robot: 'gus' })
    },
    '/projects/0/members/1',
    /"person": key/,
  ],
  [
    'unknown scope',
    (b) => {
      b.api_keys[0].scopes.push('everything')
    },
    '/api_keys/0/scopes/10',
    /not a known scope/,
  ],
  [
    'redirect with fragment',
    (b) => {
      b.oauth_clients = [
        { key: 'app', name: 'A', redirect_uris: ['https://a.test/cb#x'], public: true },
      ]
    },
    '/oauth_clients/0/redirect_uris/0',
    /fragment/,
  ],
  [
    'plain http redirect',
    (b) => {
      b.oauth_clients = [
        { key: 'app', name: 'A', redirect_uris: ['http://evil.test/cb'], public: true },
      ]
    },
    '/oauth_clients/0/redirect_uris/0',
    /https/,
  ],
  [
    'key result target equal to start',
    (b) => {
      b.okrs[0].key_results[0].start = 100
    },
    '/okrs/0/key_results/0/target',
    /differ from start/,
  ],
  [
    'completion time on an open task',
    (b) => {
      b.tasks[0].completed_at = '2026-11-01T00:00:00Z'
    },
    '/tasks/0/completed_at',
    /done/,
  ],
  [
    'wrong format',
    (b) => {
      b.format = 'workgraph.bundle/v2'
    },
    '/format',
    /constant|equal/,
  ],
]

for (const [name, edit, path, message] of CASES) {
  test(`bundle problem "${name}" is reported at ${path}`, () => {
    const problems = problemsOf(edit)
    const match = problems.find((p) => p.path === path)
    assert.ok(match, `expected a problem at ${path}, got ${JSON.stringify(problems)}`)
    assert.match(match.message, message)
  })
}

test('every problem of a bundle is listed at once, in document order', () => {
  const problems = problemsOf((b) => {
    b.people[1].role = 'boss'
    b.tasks[0].assignee = 'ghost'
    b.tasks[1].due = 'soon'
    b.extra = true
  })
  assert.deepEqual(
    problems.map((p) => p.path),
    ['/extra', '/people/1/role', '/tasks/0/assignee', '/tasks/1/due'],
  )
})

test('inputs that are not bundles at all are rejected, not thrown on', () => {
  for (const input of [
    null,
    42,
    'bundle',
    [],
    {},
    { format: 'workgraph.bundle/v1', people: 'x' },
  ]) {
    const result = validateBundle(input)
    assert.equal(result.ok, false)
    if (!result.ok) assert.ok(result.problems.length > 0)
  }
})

test('the sample bundles are valid and repeat exactly for a seed', () => {
  assert.ok(validateBundle(smallBundle()).ok)
  const demo = demoBundle({ today: '2026-11-22' })
  const result = validateBundle(demo)
  assert.ok(result.ok, result.ok ? '' : JSON.stringify(result.problems.slice(0, 5)))
  assert.deepEqual(demoBundle({ today: '2026-11-22' }), demo)
  assert.ok(
    demo.people.some((p) => p.role === 'guest') &&
      demo.people.filter((p) => p.role === 'admin').length >= 2,
  )
  assert.ok((demo.tasks?.length ?? 0) >= 200 && demo.tasks?.some((t) => t.parent))
  const scaled = scaledBundle({ scale: 2000, seed: 3 })
  assert.ok(validateBundle(scaled).ok)
  assert.deepEqual(scaledBundle({ scale: 2000, seed: 3 }), scaled)
  assert.notDeepEqual(scaledBundle({ scale: 2000, seed: 4 }), scaled)
  const items =
    (scaled.tasks?.length ?? 0) +
    (scaled.comments?.length ?? 0) +
    (scaled.canvases?.length ?? 0) +
    (scaled.okrs?.length ?? 0) +
    (scaled.projects?.length ?? 0)
  assert.ok(Math.abs(items - 2000) < 100, `about 2000 items, got ${items}`)
})

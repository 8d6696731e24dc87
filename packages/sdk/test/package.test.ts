import assert from 'node:assert/strict'
import { execFile, execFileSync, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, test } from 'node:test'
import { pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import type { ImportResult } from '../../server/src/bundle/import-bundle.ts'
import { Browser } from '../../server/test/harness/browser.ts'
import { type ListeningApp, startListeningApp } from '../../server/test/harness/browser-app.ts'
import { importOk, tokenOf, webhookBundle } from '../../server/test/harness/bundles.ts'
import { runBrowserFlow } from '../../server/test/harness/oauth-flow.ts'

// `npm pack`, installed offline into an empty project the way a user would. Then the README's
// example verbatim (typechecked strictly, compiled, run on the oldest Node.js at hand), and every
// operation of docs/openapi.json called through the installed package against a real server.
const SDK = join(import.meta.dirname, '..')
const ROOT = join(SDK, '../..')
const OLD_NODE = '/usr/bin/node'
const PASSWORD = 'correct horse battery staple'
const REDIRECT_URI = 'http://127.0.0.1:9999/callback'
let t: ListeningApp
let ws: ImportResult
let dir: string
let app: string
let tarball: string

function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}) {
  const result = spawnSync(command, args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, ...env },
  })
  assert.equal(result.status, 0, `${command} ${args.join(' ')}\n${result.stdout}\n${result.stderr}`)
  return result.stdout
}

// The tarball of a package folder, written to `destination`; its file name.
function pack(folder: string, destination: string): string {
  const before = new Set(readdirSync(destination))
  execFileSync(
    'npm',
    ['pack', folder, '--pack-destination', destination, '--silent', '--ignore-scripts'],
    { cwd: destination, stdio: 'pipe' },
  )
  const made = readdirSync(destination).find((name) => name.endsWith('.tgz') && !before.has(name))
  assert.ok(made, `npm pack ${folder} made a tarball`)
  return made
}

before(async () => {
  t = await startListeningApp({ WEBHOOKS_ALLOW_HTTP_LOOPBACK: 'true' })
  const bundle = webhookBundle()
  for (const person of bundle.people) person.password = PASSWORD
  // The owner's key may call every operation; the bundle's others keep their own scopes.
  for (const key of bundle.api_keys ?? [])
    if (key.key === 'olive-key')
      key.scopes = [
        ...new Set([...key.scopes, 'canvas:create', 'people:write', 'project:write', 'okr:write']),
      ]
  bundle.oauth_clients = [
    { key: 'planner', name: 'Planner app', redirect_uris: [REDIRECT_URI], public: true },
  ]
  ws = await importOk(t.db.db, bundle)
  dir = mkdtempSync(join(tmpdir(), 'workgraph-sdk-'))
  // The SDK's tarball, packed by the README's command (prepack builds dist/); its one dependency
  // as a tarball too, packed from the copy `npm ci` installed, so that installing needs no
  // registry at all.
  execFileSync('npm', [...readmePack(), '--pack-destination', dir, '--silent'], {
    cwd: ROOT,
    stdio: 'pipe',
  })
  tarball = readdirSync(dir).find((name) => name.endsWith('.tgz')) as string
  assert.ok(tarball)
  assert.ok(readme().includes(tarball), `the README names the tarball npm packs, ${tarball}`)
  const noble = pack(join(ROOT, 'node_modules/@noble/hashes'), dir)
  app = join(dir, 'app')
  run('mkdir', ['-p', app], dir)
  writeFileSync(
    join(app, 'package.json'),
    JSON.stringify({ name: 'app', private: true, type: 'module' }),
  )
  run(
    'npm',
    ['install', '--offline', '--no-audit', '--no-fund', join(dir, tarball), join(dir, noble)],
    app,
  )
})
after(async () => {
  await t?.close()
  if (dir) rmSync(dir, { recursive: true, force: true })
})

function readme(): string {
  return readFileSync(join(SDK, 'README.md'), 'utf8')
}

// The arguments of the README's `npm pack` command, which the SDK is installed by until it is
// published.
function readmePack(): string[] {
  const command = /^npm ci && npm (pack -w @workgraph\/sdk)\b/m.exec(readme())?.[1]
  assert.ok(command, 'the README says how to pack the SDK')
  return command.split(' ')
}

function readmeExample(): string {
  const example = /```ts\n([\s\S]*?)```/.exec(readme())?.[1]
  assert.ok(example, 'the README has a ts example')
  return example
}

// The server answers from this process, so the example must run without blocking it.
async function runExample(node: string, cwd: string, env: NodeJS.ProcessEnv): Promise<string> {
  const { stdout } = await promisify(execFile)(node, ['out/example.js'], {
    cwd,
    env: { ...process.env, ...env },
  })
  return stdout
}

test('the packed SDK ships its build, README and changelog only', () => {
  const listed = execFileSync('tar', ['-tzf', join(dir, tarball)], { encoding: 'utf8' })
  assert.match(listed, /package\/dist\/index\.js/)
  assert.match(listed, /package\/dist\/index\.d\.ts/)
  assert.match(listed, /package\/CHANGELOG\.md/)
  assert.doesNotMatch(listed, /\.test\.|package\/src\/|docs-api/, 'only the build and docs ship')
  const manifest = JSON.parse(readFileSync(join(SDK, 'package.json'), 'utf8'))
  assert.deepEqual(manifest.publishConfig, { access: 'public', provenance: true })
})

test('the README example typechecks strictly and runs on the oldest Node.js at hand', async () => {
  writeFileSync(join(app, 'example.ts'), readmeExample())
  writeFileSync(
    join(app, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'es2022',
        lib: ['es2022', 'dom'],
        module: 'nodenext',
        moduleResolution: 'nodenext',
        strict: true,
        noUncheckedIndexedAccess: true,
        exactOptionalPropertyTypes: true,
        skipLibCheck: false,
        outDir: 'out',
        types: ['node'],
        typeRoots: [join(ROOT, 'node_modules/@types')],
      },
      files: ['example.ts'],
    }),
  )
  run(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], app)

  await t.db.db
    .updateTable('tasks')
    .set({ status: 'blocked' })
    .where('id', '=', ws.ids['t-open'] as string)
    .execute()
  const node = existsSync(OLD_NODE) ? OLD_NODE : process.execPath
  const env = { WORKGRAPH_API_KEY: tokenOf(ws, 'alice-key'), WORKGRAPH_URL: t.origin }
  const first = await runExample(node, app, env)
  assert.match(first, /^blocked: Open task$/m)
  assert.match(first, /^objective progress: /m)
  assert.match(first, /^hits: /m)
  assert.match(first, /^task true$/m)
  assert.match(first, /^refused: 422 validation_failed \/title \S+$/m)
  assert.match(first, /^replayed: false, then true$/m)
  // Run again: the keyed create gives the same task back instead of a second one.
  await runExample(node, app, env)
  const checklists = await t.db.db
    .selectFrom('tasks')
    .where('title', '=', 'Draft the launch checklist')
    .select('id')
    .execute()
  assert.equal(checklists.length, 1)
})

interface DocumentOperation {
  id: string
  method: string
  pattern: RegExp
  params: number
}

// The operations of the committed document, each with a pattern its concrete paths match.
function documentOperations(): DocumentOperation[] {
  const document = JSON.parse(readFileSync(join(ROOT, 'docs/openapi.json'), 'utf8')) as {
    paths: Record<string, Record<string, { operationId?: string }>>
  }
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).flatMap(([method, operation]) =>
      operation.operationId
        ? [
            {
              id: operation.operationId,
              method: method.toUpperCase(),
              pattern: new RegExp(`^${path.replaceAll(/\{[^}]+\}/g, '[^/]+')}$`),
              params: path.split('{').length - 1,
            },
          ]
        : [],
    ),
  )
}

test('every operation of docs/openapi.json has an SDK method, and each works through the package', async () => {
  // The installed build, typed as the source it was built from.
  const sdk = (await import(
    pathToFileURL(join(app, 'node_modules/@workgraph/sdk/dist/index.js')).href
  )) as typeof import('../src/index.ts')
  const operations = documentOperations()
  const called = new Set<string>()
  const recording: typeof fetch = (input, init) => {
    const url = new URL(String(input))
    const method = init?.method ?? 'GET'
    const matching = operations
      .filter((operation) => operation.method === method && operation.pattern.test(url.pathname))
      .sort((a, b) => a.params - b.params)
    if (matching[0]) called.add(matching[0].id)
    return fetch(input, init)
  }
  const client = (apiKey?: string) =>
    new sdk.Workgraph({ baseUrl: t.origin, fetch: recording, ...(apiKey ? { apiKey } : {}) })
  const wg = client(tokenOf(ws, 'olive-key'))
  const id = (key: string) => ws.ids[key] as string

  // The coverage map names exactly the document's operations, each with a method of the client.
  assert.deepEqual(
    Object.keys(sdk.COVERAGE).sort(),
    operations.map((operation) => operation.id).sort(),
    'COVERAGE and docs/openapi.json name the same operations',
  )
  for (const [operation, entry] of Object.entries(sdk.COVERAGE)) {
    const method = entry.method
      .split('.')
      .reduce<unknown>((owner, name) => (owner as Record<string, unknown>)[name], wg)
    assert.equal(typeof method, 'function', `${operation}: wg.${entry.method}`)
  }

  // Health, workspace, people, teams.
  assert.equal((await wg.health.liveness()).status, 'ok')
  assert.equal((await wg.health.readiness()).lastResponse.status, 200)
  const workspace = await wg.workspace.get()
  assert.equal(workspace.id, ws.workspace_id)
  const me = await wg.me.get()
  assert.equal(me.actor.id, id('olive'))
  assert.equal(me.credential.type, 'api_key')
  assert.ok((await wg.people.list({ limit: 2 }).firstPage()).data.length > 0)
  assert.equal((await wg.people.get(id('alice'))).name, 'Alice Member')
  const team = (await wg.teams.list().firstPage()).data[0]
  assert.equal((await wg.teams.get(team?.id as string)).name, 'Engineering')
  // People: an invitation with its link (once), a role, a deactivation and a return.
  const invited = await wg.invitations.create({ email: 'packed@example.test', role: 'guest' })
  assert.match(invited.url ?? '', /\/join\/wg_inv_/)
  const pending = await wg.invitations.list().firstPage()
  assert.ok(pending.data.some((item) => item.id === invited.invitation.id))
  assert.equal((await wg.invitations.revoke(invited.invitation.id)).status, 'revoked')
  assert.equal((await wg.people.update(id('gus'), { role: 'member' })).role, 'member')
  assert.equal((await wg.people.deactivate(id('bob'))).deactivated, true)
  assert.equal((await wg.people.reactivate(id('bob'))).deactivated, false)

  // Teams and projects: made, renamed, shared and unshared.
  const design = await wg.teams.create({ name: 'Packed team', member_ids: [id('alice')] })
  assert.equal(design.lastResponse.status, 201)
  assert.equal((await wg.teams.update(design.id, { name: 'Packed design' })).name, 'Packed design')
  assert.ok((await wg.teams.addMember(design.id, { person_id: id('bob') })).member_ids.length === 2)
  assert.deepEqual((await wg.teams.removeMember(design.id, id('bob'))).member_ids, [id('alice')])
  const made = await wg.projects.create({ name: 'Packed project', visibility: 'private' })
  assert.equal(made.owner_id, id('olive'))
  assert.equal((await wg.projects.update(made.id, { status: 'paused' })).status, 'paused')
  assert.deepEqual((await wg.projects.addMember(made.id, { team_id: design.id })).team_ids, [
    design.id,
  ])
  assert.deepEqual((await wg.projects.removeMember(made.id, design.id)).team_ids, [])

  // Projects, canvases, tasks, objectives, comments, activity: typed reads and writes.
  const projects = await wg.projects.list({ limit: 1 }).firstPage()
  assert.equal(projects.data.length, 1)
  assert.equal(projects.lastResponse.status, 200, 'a page carries its response too')
  assert.equal((await wg.projects.get(id('open'))).name, 'Open project')
  await wg.projects.activity(id('open'), { limit: 1 }).firstPage()
  const canvas = await wg.canvases.create({ title: 'Packed canvas', project_id: id('open') })
  assert.equal(canvas.lastResponse.status, 201)
  await wg.canvases.update(canvas.id, { summary: 'Made by the package test' })
  assert.equal((await wg.canvases.get(canvas.id)).summary, 'Made by the package test')
  await wg.canvases.list({ project_id: id('open') }).firstPage()
  const task = await wg.tasks.create({ title: 'Packed task', project_id: id('open') })
  await wg.tasks.update(task.id, { status: 'blocked' })
  assert.equal((await wg.tasks.complete(task.id)).status, 'done')
  assert.equal((await wg.tasks.get(task.id)).status, 'done')
  assert.ok((await wg.tasks.list({ status: ['done'] }).toArray(50)).some((t) => t.id === task.id))
  const okr = await wg.okrs.get(id('o1'))
  assert.equal((await wg.okrs.list().firstPage()).data[0]?.id, okr.id)
  const goal = await wg.okrs.create({
    title: 'Packed goal',
    session: '2026-Q4',
    key_results: [{ title: 'Packed result', start: 0, target: 10, unit: 'count' }],
  })
  const result = await wg.okrs.addKeyResult(goal.id, { title: 'Second', start: 0, target: 4 })
  await wg.okrs.updateKeyResult(result.id, { target: 8 })
  assert.equal((await wg.okrs.update(goal.id, { status: 'closed' })).status, 'closed')
  const checkin = await wg.okrs.checkin({ key_result_id: id('kr1'), value: 41 })
  assert.equal(checkin.key_result.current, 41)
  const comment = await wg.comments.create({ resource_id: task.id, body: 'Packed comment' })
  assert.equal((await wg.comments.get(comment.id)).body, 'Packed comment')
  await wg.activity.list({ verbs: ['task.created'], limit: 1 }).firstPage()
  const changes = await wg.changes.list({ from: 'start', types: 'task.created' })
  assert.ok(changes.data.every((change) => change.event === 'task.created'))

  // Any resource: record, links, comments, access, summary; search; attention.
  assert.equal((await wg.resources.get(task.id)).type, 'task')
  await wg.resources.links(task.id).firstPage()
  assert.equal((await wg.resources.comments(task.id).firstPage()).data[0]?.id, comment.id)
  assert.equal(
    (await wg.resources.access(task.id, { person_id: id('alice') })).person_id,
    id('alice'),
  )
  const summary = await wg.resources.summary(id('open'), { max_tokens: 300 })
  assert.ok(summary.budget.used_tokens <= 300)
  await wg.search({ query: 'packed task', limit: 3 })
  await wg.attention({ for: 'workspace', max_tokens: 300 })

  // Tokens, API keys, audit.
  const key = await wg.apiKeys.create({ name: 'Packed key', scopes: ['task:read'] })
  assert.match(key.token, /^wg_key_/)
  // A rotation issues a new key; the old one ends after the overlap.
  const rotated = await wg.apiKeys.rotate(key.id, { overlap_seconds: 0 })
  assert.match(rotated.token, /^wg_key_/)
  assert.ok((await wg.tokens.list({ type: 'api_key' }).toArray()).some((k) => k.id === rotated.id))
  assert.equal((await wg.tokens.revoke(rotated.id)).status, 'revoked')
  assert.ok((await wg.audit.list({ action: 'api_key.created' }).firstPage()).data.length > 0)

  // Webhooks: every call on one endpoint; nothing is delivered (no dispatcher runs).
  const endpoint = await wg.webhooks.create({
    url: 'http://127.0.0.1:9999/packed',
    events: ['task.created'],
  })
  assert.equal((await wg.webhooks.get(endpoint.id)).url, endpoint.url)
  await wg.webhooks.update(endpoint.id, { description: 'Packed' })
  await wg.webhooks.list().firstPage()
  await wg.webhooks.rotateSecret(endpoint.id, {})
  const sent = await wg.webhooks.test(endpoint.id)
  assert.equal(sent.lastResponse.status, 202)
  assert.equal((await wg.webhooks.deliveries(endpoint.id).firstPage()).data[0]?.id, sent.id)
  assert.equal((await wg.webhooks.delivery(endpoint.id, sent.id)).id, sent.id)
  await wg.webhooks.replay(endpoint.id, sent.id, { dryRun: true })
  await wg.webhooks.recover(endpoint.id, { since: '2026-01-01T00:00:00Z' }, { dryRun: true })
  await wg.webhooks.delete(endpoint.id)

  // OAuth: metadata, then a real authorization with PKCE, the code exchange, a refresh and a
  // revocation; the grant it made is listed and revoked.
  const metadata = await wg.oauth.metadata()
  assert.equal(metadata.issuer, t.origin)
  assert.equal((await wg.oauth.protectedResourceMetadata()).resource, t.origin)
  assert.ok(Array.isArray((await wg.oauth.jwks()).keys))
  const clientId = ws.oauth_clients.planner?.client_id as string
  const pkce = sdk.createPkcePair()
  const state = sdk.randomState()
  const authorizeUrl = wg.oauth.authorizeUrl({
    client_id: clientId,
    redirect_uri: REDIRECT_URI,
    scope: 'project:read',
    code_challenge: pkce.code_challenge,
    state,
  })
  const page = operations.find((operation) => operation.id === 'authorize')
  assert.ok(page?.pattern.test(new URL(authorizeUrl).pathname), 'the URL is the browser page')
  const flow = await runBrowserFlow(new Browser(t.origin), authorizeUrl, {
    email: 'alice@example.test',
    password: PASSWORD,
  })
  const callback = new URL(flow.callback ?? 'http://no.callback/')
  assert.equal(callback.searchParams.get('state'), state, flow.page.body)
  called.add('authorize')
  const anonymous = client()
  const tokens = await anonymous.oauth.exchangeCode({
    code: callback.searchParams.get('code') as string,
    redirect_uri: REDIRECT_URI,
    code_verifier: pkce.code_verifier,
    client_id: clientId,
  })
  assert.match(tokens.access_token, /^wg_at_/)
  const asApp = client(tokens.access_token)
  assert.ok((await asApp.projects.list().toArray()).length > 0)
  const refreshed = await anonymous.oauth.refresh({
    refresh_token: tokens.refresh_token as string,
    client_id: clientId,
  })
  const revoked = await anonymous.oauth.revoke({
    token: refreshed.access_token,
    token_type_hint: 'access_token',
    client_id: clientId,
  })
  assert.equal(revoked.lastResponse.status, 200)
  const grant = (await wg.oauthGrants.list({ client_id: clientId }).firstPage()).data[0]
  assert.ok(grant)
  await wg.oauthGrants.revoke(grant.id)
  // A code is single-use: a second exchange is an OAuth error, as the SDK's error class.
  const spent = await anonymous.oauth
    .exchangeCode({
      code: callback.searchParams.get('code') as string,
      redirect_uri: REDIRECT_URI,
      code_verifier: pkce.code_verifier,
      client_id: clientId,
    })
    .catch((error: unknown) => error)
  assert.ok(spent instanceof sdk.ValidationError, 'a spent code is an OAuth 400')
  assert.equal(spent.code, 'invalid_grant')

  // The raw request goes through the same transport: auth, metadata, errors.
  const raw = await wg.request<{ data: unknown[] }>({
    method: 'GET',
    path: '/v1/tasks',
    query: { limit: 1 },
  })
  assert.equal(raw.data.length, 1)
  assert.equal(raw.lastResponse.status, 200)

  const missing = operations.filter((operation) => !called.has(operation.id)).map((o) => o.id)
  assert.deepEqual(missing, [], 'every operation of the document was called')
})

test('errors are classes of the installed package, with their fields; metadata reads headers', async () => {
  const sdk = (await import(
    pathToFileURL(join(app, 'node_modules/@workgraph/sdk/dist/index.js')).href
  )) as typeof import('../src/index.ts')
  const as = (key: string) => new sdk.Workgraph({ apiKey: tokenOf(ws, key), baseUrl: t.origin })
  const caught = (promise: Promise<unknown>) => promise.catch((error: unknown) => error)

  const missing = await caught(as('alice-key').tasks.get('tsk_00000000000000000000000000'))
  assert.ok(missing instanceof sdk.NotFoundError && missing instanceof sdk.WorkgraphError)
  assert.equal(missing.status, 404)
  assert.match(missing.requestId ?? '', /\S/)
  assert.equal(missing.headers?.get('x-request-id'), missing.requestId)
  const wrongKind = await caught(as('alice-key').tasks.get(ws.ids.open as string))
  assert.ok(wrongKind instanceof sdk.NotFoundError, 'a project id is no task')
  const invalid = await caught(as('alice-key').tasks.create({ title: '' }))
  assert.ok(invalid instanceof sdk.ValidationError)
  assert.equal(invalid.errors[0]?.path, '/title')
  const narrow = await caught(as('narrow-key').projects.list().firstPage())
  assert.ok(narrow instanceof sdk.PermissionError)
  assert.deepEqual(narrow.requiredScopes, ['project:read'])
  const unknown = new sdk.Workgraph({ apiKey: 'wg_key_unknown', baseUrl: t.origin })
  assert.ok((await caught(unknown.workspace.get())) instanceof sdk.AuthenticationError)
  const offline = new sdk.Workgraph({ apiKey: 'x', baseUrl: 'http://127.0.0.1:9', maxRetries: 0 })
  const unreachable = await caught(offline.workspace.get())
  assert.ok(unreachable instanceof sdk.ConnectionError && unreachable.status === undefined)

  const wg = as('alice-key')
  const body = { title: 'Metadata task', project_id: ws.ids.open as string }
  const first = await wg.tasks.create(body, { idempotencyKey: 'package-metadata' })
  const again = await wg.tasks.create(body, { idempotencyKey: 'package-metadata' })
  assert.deepEqual([first.lastResponse.replayed, again.lastResponse.replayed], [false, true])
  assert.equal(again.lastResponse.idempotencyKey, 'package-metadata')
  const { rateLimit } = first.lastResponse
  assert.ok(rateLimit && rateLimit.limit > 0 && rateLimit.remaining < rateLimit.limit)
  assert.equal(Object.keys(first).includes('lastResponse'), false, 'not enumerable')
  assert.equal(JSON.stringify(first).includes('lastResponse'), false)
})

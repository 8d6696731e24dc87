import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { InjectOptions } from 'fastify'
import type { ImportResult } from '../../src/bundle/import-bundle.ts'
import { ALL_READ_SCOPES, importOk, tokenOf, webhookBundle } from '../harness/bundles.ts'
import { appTokens } from '../harness/oauth-client-requests.ts'
import {
  confidentialApp,
  type ListeningTestApp,
  startListeningTestApp,
} from '../harness/oauth-flow.ts'
import { type Exchange, OpenApiValidator, type Violation } from '../harness/openapi-validator.ts'
import { startTestApp } from '../harness/test-app.ts'

// Every operation of the served OpenAPI document, called against the real app with good
// requests, dry runs and refusals, each answer checked against what the document declares for
// that operation: status, content type, body, headers; and the document must agree with the
// server about which requests are valid. A validating proxy in front of the server would see
// exactly these answers, so any violation is a lie of the document.

// biome-ignore lint/suspicious/noExplicitAny: the document and answers are arbitrary JSON
type Json = any

const PASSWORD = 'correct horse battery staple'
const REDIRECT = 'https://app.example.test/cb'

let t: ListeningTestApp
let ws: ImportResult
let document: Json
let validator: OpenApiValidator
const exchanges: Exchange[] = []
let oauth: { app: { id: string; secret: string }; refreshToken: string; accessToken: string }

before(async () => {
  t = await startListeningTestApp({ OAUTH_SIGN_INS_PER_MINUTE: '100000' })
  const bundle = webhookBundle()
  for (const person of bundle.people) person.password = PASSWORD
  bundle.api_keys = [
    // Olive also shapes objectives and the workspace's people.
    ...(bundle.api_keys ?? []).map((key) =>
      key.key === 'olive-key'
        ? { ...key, scopes: [...key.scopes, 'okr:write', 'people:write', 'project:write'] }
        : key,
    ),
    { key: 'workspace-only', person: 'olive', scopes: ['workspace:read'] },
    { key: 'spare-key', person: 'olive', scopes: ALL_READ_SCOPES },
  ]
  ws = await importOk(t.db.db, bundle)
  const app = await confidentialApp(t.db.db, REDIRECT)
  const { tokens } = await appTokens(t.origin, app, {
    redirectUri: REDIRECT,
    scope: 'project:read task:read token:manage',
    user: { email: 'olive@example.test', password: PASSWORD },
  })
  oauth = { app, refreshToken: tokens.refresh_token, accessToken: tokens.access_token }
  document = (await t.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json()
  validator = new OpenApiValidator(document)
})
after(() => t.close())

const id = (key: string) => ws.ids[key] as string
const token = (key: string) => tokenOf(ws, key)
const basic = (app: { id: string; secret: string }) =>
  `Basic ${Buffer.from(`${app.id}:${app.secret}`).toString('base64')}`

interface Call {
  /** The bundle key of the bearer token, or null for none. */
  as?: string | null
  body?: unknown
  form?: Record<string, string>
  headers?: Record<string, string>
  /** Meant to break the document's schemas: the server must refuse it, the document too. */
  outOfSchema?: boolean
}

// Sends one request of an operation and keeps the exchange for the validator.
async function call(
  operationId: string,
  method: string,
  url: string,
  { as = 'olive-key', body, form, headers = {}, outOfSchema }: Call = {},
  app = t.app,
): Promise<{ status: number; json: Json; headers: Json }> {
  const sent: Record<string, string> = { ...headers }
  if (as) sent.authorization = `Bearer ${token(as)}`
  const options: InjectOptions = { method: method as InjectOptions['method'], url, headers: sent }
  if (body !== undefined) options.payload = body as object
  if (form) {
    sent['content-type'] = 'application/x-www-form-urlencoded'
    options.payload = new URLSearchParams(form).toString()
  }
  const reply = await app.inject(options)
  const query: Record<string, string | string[]> = {}
  for (const [name, value] of new URL(url, 'http://x').searchParams) {
    const earlier = query[name]
    query[name] = earlier === undefined ? value : [earlier, value].flat()
  }
  exchanges.push({
    operationId,
    query,
    headers: sent,
    body: form ?? body,
    status: reply.statusCode,
    responseHeaders: reply.headers,
    responseBody: reply.body,
    ...(outOfSchema ? { outOfSchema } : {}),
  })
  let json: Json
  try {
    json = reply.json()
  } catch {
    json = undefined
  }
  return { status: reply.statusCode, json, headers: reply.headers }
}

// A well-formed id of the same kind that names nothing.
const unknownLike = (value: string) => `${value.split('_')[0]}_${'0'.repeat(26)}`

// The refusals every authenticated operation can give: no token, a token without its scope, an
// unknown id, a value out of range.
async function refusals(operationId: string, method: string, url: string, body?: unknown) {
  const op = operationOf(operationId)
  await call(operationId, method, url, { as: null, body })
  const scopes: string[] = op['x-required-scopes'] ?? []
  const without = scopes.includes('workspace:read') ? 'narrow-key' : 'workspace-only'
  await call(operationId, method, url, { as: without, body })
  const [path, search = ''] = url.split('?')
  const ids = (path as string).split('/').filter((part) => /^[a-z]{2,4}_[0-9a-z]{26}$/.test(part))
  for (const found of ids)
    await call(operationId, method, `${path?.replace(found, unknownLike(found))}?${search}`, {
      body,
    })
  const limited = (op.parameters ?? []).some((p: Json) => p.name === 'limit')
  if (limited) await call(operationId, method, `${path}?limit=1000`, { body })
}

function operationOf(operationId: string): Json {
  for (const item of Object.values<Json>(document.paths))
    for (const op of Object.values<Json>(item)) if (op.operationId === operationId) return op
  throw new Error(`no operation ${operationId}`)
}

// A write: its dry run, the write itself, and its refusals; the write's answer is returned.
async function write(
  operationId: string,
  method: string,
  url: string,
  call_: Call = {},
  expected?: number,
): Promise<Json> {
  const join = url.includes('?') ? '&' : '?'
  const dry = await call(operationId, method, `${url}${join}dry_run=true`, call_)
  assert.equal(dry.status, 200, `${operationId} dry run: ${JSON.stringify(dry.json)}`)
  const real = await call(operationId, method, url, call_)
  if (expected) assert.equal(real.status, expected, `${operationId}: ${JSON.stringify(real.json)}`)
  return real.json
}

async function read(operationId: string, url: string, as = 'olive-key'): Promise<Json> {
  const reply = await call(operationId, 'GET', url, { as })
  assert.equal(reply.status, 200, `${operationId} ${url}: ${JSON.stringify(reply.json)}`)
  await refusals(operationId, 'GET', url)
  return reply.json
}

async function crawlReads(): Promise<void> {
  await call('getLiveness', 'GET', '/healthz', { as: null })
  await call('getReadiness', 'GET', '/readyz', { as: null })
  await read('getWorkspace', '/v1/workspace')
  await read('getMe', '/v1/me')
  await read('listPeople', '/v1/people')
  await read('getPerson', `/v1/people/${id('alice')}`)
  await read('listTeams', '/v1/teams')
  await read('listProjects', '/v1/projects')
  await read('listCanvases', '/v1/canvases')
  await read('listTasks', `/v1/tasks?status=todo&status=done&project_id=${id('open')}`)
  await read('listOkrs', '/v1/okrs')
  await read('listActivity', '/v1/activity')
  await read('listProjectActivity', `/v1/projects/${id('open')}/activity`)
  await read('listChanges', '/v1/changes?types=task.created')
  await call('listChanges', 'GET', '/v1/changes?types=task.exploded', { outOfSchema: true })
  for (const key of ['t-open', 'open', 'plan', 'o1', 'm1', 'alice'])
    await read('getResource', `/v1/resources/${id(key)}`, 'alice-key')
  await read('listResourceLinks', `/v1/resources/${id('t-secret')}/links`, 'alice-key')
  await read('listResourceComments', `/v1/resources/${id('t-secret')}/comments`, 'alice-key')
  await read('getResourceAccess', `/v1/resources/${id('t-secret')}/access`, 'alice-key')
  await read(
    'getResourceSummary',
    `/v1/resources/${id('secret')}/summary?max_tokens=300`,
    'alice-key',
  )
  await read('getResourceSummary', `/v1/resources/${id('t-open')}/summary?format=compact`)
  await read('getAttention', '/v1/attention')
  await read('getAttention', '/v1/attention?format=compact')
  await read('listTokens', '/v1/tokens')
  await read('listAuditEntries', '/v1/audit')
  await read('listOAuthGrants', '/v1/oauth-grants')
}

async function crawlWrites(): Promise<void> {
  const canvas = await write(
    'createCanvas',
    'POST',
    '/v1/canvases',
    { body: { title: 'Crawl canvas', project_id: id('open') } },
    201,
  )
  await refusals('createCanvas', 'POST', '/v1/canvases', { title: '' })
  await write('updateCanvas', 'PATCH', `/v1/canvases/${canvas.id}`, {
    body: { summary: 'Crawled', links: [id('t-open')] },
  })
  await call('updateCanvas', 'PATCH', `/v1/canvases/${canvas.id}`, {
    body: { links: [id('t-open'), id('t-open')] },
    outOfSchema: true,
  })
  await refusals('updateCanvas', 'PATCH', `/v1/canvases/${canvas.id}`, { colour: 'red' })

  const task = await write(
    'createTask',
    'POST',
    '/v1/tasks',
    {
      body: { title: 'Crawled task', project_id: id('open'), due: null },
      headers: { 'idempotency-key': '"crawl-quoted-1"' },
    },
    201,
  )
  await call('createTask', 'POST', '/v1/tasks', {
    body: { title: 'Crawled task', project_id: id('open'), due: null },
    headers: { 'idempotency-key': '"crawl-quoted-1"' },
  })
  await call('createTask', 'POST', '/v1/tasks', {
    body: { title: 'Another body', project_id: id('open') },
    headers: { 'idempotency-key': '"crawl-quoted-1"' },
  })
  await refusals('createTask', 'POST', '/v1/tasks', { title: '', status: 'doing' })
  await write('updateTask', 'PATCH', `/v1/tasks/${task.id}`, {
    body: { assignee_id: id('alice'), due: '2026-12-24' },
  })
  await refusals('updateTask', 'PATCH', `/v1/tasks/${task.id}`, { due: 5 })
  await write('completeTask', 'POST', `/v1/tasks/${task.id}/complete`, {}, 200)
  await refusals('completeTask', 'POST', `/v1/tasks/${task.id}/complete`)

  const checkin = { key_result_id: id('kr1'), value: 55, confidence: 0.7, note: 'On track' }
  await write('createCheckin', 'POST', '/v1/okr/checkins', { body: checkin }, 201)
  await call('createCheckin', 'POST', '/v1/okr/checkins', {
    body: { ...checkin, value: 1e16 },
    outOfSchema: true,
  })
  await refusals('createCheckin', 'POST', '/v1/okr/checkins', { key_result_id: id('kr1') })

  const okr = await write(
    'createOkr',
    'POST',
    '/v1/okrs',
    {
      body: {
        title: 'Crawled objective',
        session: '2026-Q4',
        project_id: id('open'),
        key_results: [{ title: 'Crawled measure', target: 10, unit: '%' }],
      },
    },
    201,
  )
  await call('createOkr', 'POST', '/v1/okrs', {
    body: { title: 'Huge', session: '2026-Q4', key_results: [{ title: 'x', target: 1e16 }] },
    outOfSchema: true,
  })
  await refusals('createOkr', 'POST', '/v1/okrs', { title: '', session: '2026-Q4' })
  await write('updateOkr', 'PATCH', `/v1/okrs/${okr.id}`, { body: { status: 'closed' } }, 200)
  await refusals('updateOkr', 'PATCH', `/v1/okrs/${okr.id}`, { status: 'done' })
  const keyResult = await write(
    'createKeyResult',
    'POST',
    `/v1/okrs/${okr.id}/key-results`,
    { body: { title: 'Second measure', start: 10, target: 0 } },
    201,
  )
  await refusals('createKeyResult', 'POST', `/v1/okrs/${okr.id}/key-results`, { target: 'ten' })
  await write('updateKeyResult', 'PATCH', `/v1/key-results/${keyResult.id}`, {
    body: { target: 5 },
  })
  await refusals('updateKeyResult', 'PATCH', `/v1/key-results/${keyResult.id}`, {})

  const comment = { resource_id: id('t-open'), body: 'Crawled comment' }
  await write('createComment', 'POST', '/v1/comments', { body: comment }, 201)
  await refusals('createComment', 'POST', '/v1/comments', { body: '' })

  await write('search', 'POST', '/v1/search', { body: { query: 'open task', limit: 3 } }, 200)
  await refusals('search', 'POST', '/v1/search', { query: 'x', limit: 1000 })

  const key = await write(
    'createApiKey',
    'POST',
    '/v1/api-keys',
    { body: { name: 'Crawl key', scopes: ['task:read'] } },
    201,
  )
  await call('createApiKey', 'POST', '/v1/api-keys', {
    body: { name: 'Bad scope', scopes: ['tasks:read'] },
    outOfSchema: true,
  })
  await refusals('createApiKey', 'POST', '/v1/api-keys', { name: 'No scopes' })
  await write('rotateApiKey', 'POST', `/v1/api-keys/${key.id}/rotate`, {}, 200)
  await write('rotateApiKey', 'POST', `/v1/api-keys/${key.id}/rotate`, {
    body: { overlap_seconds: 0 },
  })
  await refusals('rotateApiKey', 'POST', `/v1/api-keys/${key.id}/rotate`, { overlap_seconds: -1 })
  await write('revokeToken', 'POST', `/v1/tokens/${key.id}/revoke`, {}, 200)
  await refusals('revokeToken', 'POST', `/v1/tokens/${ws.api_keys['spare-key']?.id}/revoke`)
}

async function crawlWebhooks(): Promise<void> {
  const url = 'https://hooks.example.test/in'
  const endpoint = await write(
    'createWebhook',
    'POST',
    '/v1/webhooks',
    { body: { url, events: ['task.created'], description: 'Crawl' } },
    201,
  )
  await call('createWebhook', 'POST', '/v1/webhooks', {
    body: { url: 'http://hooks.example.test' },
    outOfSchema: true,
  })
  await refusals('createWebhook', 'POST', '/v1/webhooks', { url: 'not a url' })
  const at = `/v1/webhooks/${endpoint.id}`
  await read('listWebhooks', '/v1/webhooks')
  await read('getWebhook', at)
  await write('updateWebhook', 'PATCH', at, { body: { description: 'Crawled' } }, 200)
  await refusals('updateWebhook', 'PATCH', at, { status: 'paused' })
  await write('rotateWebhookSecret', 'POST', `${at}/rotate-secret`, {}, 200)
  await call('rotateWebhookSecret', 'POST', `${at}/rotate-secret`, { body: {} })
  await refusals('rotateWebhookSecret', 'POST', `${at}/rotate-secret`, {
    grace_period_seconds: -1,
  })
  await write('sendWebhookTestEvent', 'POST', `${at}/test`, {}, 202)
  await refusals('sendWebhookTestEvent', 'POST', `${at}/test`)
  const deliveries = await read('listWebhookDeliveries', `${at}/deliveries`)
  const delivery = deliveries.data[0].id
  await read('getWebhookDelivery', `${at}/deliveries/${delivery}`)
  await write('replayWebhookDelivery', 'POST', `${at}/deliveries/${delivery}/replay`, {}, 202)
  await refusals('replayWebhookDelivery', 'POST', `${at}/deliveries/${delivery}/replay`)
  const since = new Date(Date.now() - 3_600_000).toISOString()
  await write('recoverWebhookDeliveries', 'POST', `${at}/recover`, { body: { since } }, 202)
  await refusals('recoverWebhookDeliveries', 'POST', `${at}/recover`, { since: 'yesterday' })
  await call('updateWebhook', 'PATCH', at, { body: { status: 'disabled' } })
  await call('sendWebhookTestEvent', 'POST', `${at}/test`)
  await write('deleteWebhook', 'DELETE', at, {}, 200)
  await refusals('deleteWebhook', 'DELETE', at)
}

async function crawlPeople(): Promise<void> {
  const invited = await write(
    'createInvitation',
    'POST',
    '/v1/invitations',
    { body: { email: 'crawled@example.test', role: 'member', name: 'Crawled' } },
    201,
  )
  // Already invited: a 409.
  await call('createInvitation', 'POST', '/v1/invitations', {
    body: { email: 'crawled@example.test', role: 'member' },
  })
  await call('createInvitation', 'POST', '/v1/invitations', {
    body: { email: 'x@example.test', role: 'owner' },
    outOfSchema: true,
  })
  // A member may not invite: a 403 `forbidden`.
  await call('createInvitation', 'POST', '/v1/invitations', {
    as: 'alice-key',
    body: { email: 'y@example.test', role: 'member' },
  })
  await refusals('createInvitation', 'POST', '/v1/invitations', { email: 'z@example.test' })
  await read('listInvitations', '/v1/invitations')
  const at = `/v1/invitations/${invited.invitation.id}`
  await write('revokeInvitation', 'DELETE', at, {}, 200)
  await refusals('revokeInvitation', 'DELETE', at)
  const person = `/v1/people/${id('gus')}`
  await write('updatePerson', 'PATCH', person, { body: { role: 'member' } }, 200)
  await call('updatePerson', 'PATCH', person, { body: { role: 'king' }, outOfSchema: true })
  await refusals('updatePerson', 'PATCH', person, { role: 'guest' })
  await call('updatePerson', 'PATCH', `/v1/people/${id('olive')}`, { body: { role: 'member' } })
  await write('deactivatePerson', 'POST', `/v1/people/${id('bob')}/deactivate`, {}, 200)
  await refusals('deactivatePerson', 'POST', `/v1/people/${id('bob')}/deactivate`)
  await write('reactivatePerson', 'POST', `/v1/people/${id('bob')}/reactivate`, {}, 200)
  await refusals('reactivatePerson', 'POST', `/v1/people/${id('bob')}/reactivate`)
}

async function crawlProjectsAndTeams(): Promise<void> {
  const team = await write(
    'createTeam',
    'POST',
    '/v1/teams',
    { body: { name: 'Crawled team', member_ids: [id('alice')] } },
    201,
  )
  // The same name again: a 409.
  await call('createTeam', 'POST', '/v1/teams', { body: { name: 'crawled team' } })
  await refusals('createTeam', 'POST', '/v1/teams', { name: '' })
  await write('updateTeam', 'PATCH', `/v1/teams/${team.id}`, { body: { name: 'Crawled crew' } })
  await refusals('updateTeam', 'PATCH', `/v1/teams/${team.id}`, { colour: 'red' })
  await write('addTeamMember', 'POST', `/v1/teams/${team.id}/members`, {
    body: { person_id: id('bob') },
  })
  await refusals('addTeamMember', 'POST', `/v1/teams/${team.id}/members`, {})
  await write('removeTeamMember', 'DELETE', `/v1/teams/${team.id}/members/${id('bob')}`, {})
  await refusals('removeTeamMember', 'DELETE', `/v1/teams/${team.id}/members/${id('bob')}`)

  const project = await write(
    'createProject',
    'POST',
    '/v1/projects',
    { body: { name: 'Crawled project', visibility: 'private' } },
    201,
  )
  await refusals('createProject', 'POST', '/v1/projects', { name: 'x', status: 'done' })
  await write('updateProject', 'PATCH', `/v1/projects/${project.id}`, {
    body: { status: 'paused', description: 'Crawled' },
  })
  // Handing it to someone who cannot open it: a 422.
  await call('updateProject', 'PATCH', `/v1/projects/${project.id}`, {
    body: { owner_id: id('gus') },
  })
  await refusals('updateProject', 'PATCH', `/v1/projects/${project.id}`, { visibility: 'open' })
  await write('addProjectMember', 'POST', `/v1/projects/${project.id}/members`, {
    body: { team_id: team.id },
  })
  await call('addProjectMember', 'POST', `/v1/projects/${project.id}/members`, {
    body: { team_id: team.id, person_id: id('bob') },
    outOfSchema: true,
  })
  await refusals('addProjectMember', 'POST', `/v1/projects/${project.id}/members`, {})
  await write('removeProjectMember', 'DELETE', `/v1/projects/${project.id}/members/${team.id}`, {})
  await refusals('removeProjectMember', 'DELETE', `/v1/projects/${project.id}/members/${team.id}`)
}

async function crawlOAuth(): Promise<void> {
  const grants = await read('listOAuthGrants', '/v1/oauth-grants')
  const grant = grants.data[0].id
  await call('getJwks', 'GET', '/oauth/jwks', { as: null })
  await call('getAuthorizationServerMetadata', 'GET', '/.well-known/oauth-authorization-server', {
    as: null,
  })
  await call('getProtectedResourceMetadata', 'GET', '/.well-known/oauth-protected-resource', {
    as: null,
  })
  await call('authorize', 'GET', '/oauth/authorize', { as: null })
  await call(
    'authorize',
    'GET',
    `/oauth/authorize?${new URLSearchParams({
      response_type: 'code',
      client_id: oauth.app.id,
      redirect_uri: REDIRECT,
      scope: 'task:read',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
    })}`,
    { as: null },
  )
  const authorization = basic(oauth.app)
  const refreshed = await call('exchangeToken', 'POST', '/oauth/token', {
    as: null,
    form: { grant_type: 'refresh_token', refresh_token: oauth.refreshToken },
    headers: { authorization },
  })
  assert.equal(refreshed.status, 200, JSON.stringify(refreshed.json))
  await call('exchangeToken', 'POST', '/oauth/token', {
    as: null,
    form: { grant_type: 'refresh_token', refresh_token: 'wg_rt_unknown' },
    headers: { authorization },
  })
  await call('exchangeToken', 'POST', '/oauth/token', {
    as: null,
    form: { grant_type: 'refresh_token', refresh_token: oauth.refreshToken },
    headers: { authorization: basic({ ...oauth.app, secret: 'wrong' }) },
  })
  await call('exchangeToken', 'POST', '/oauth/token', { as: null, form: {} })
  await call('revokeOAuthToken', 'POST', '/oauth/revoke', {
    as: null,
    form: { token: refreshed.json.access_token },
    headers: { authorization },
  })
  await call('revokeOAuthToken', 'POST', '/oauth/revoke', { as: null, form: {} })
  await write('revokeOAuthGrant', 'POST', `/v1/oauth-grants/${grant}/revoke`, {}, 200)
  await refusals('revokeOAuthGrant', 'POST', `/v1/oauth-grants/${grant}/revoke`)
}

// Over the budget: a second app on the same database, allowed one read a minute.
async function crawlRateLimit(): Promise<void> {
  const limited = await startTestApp({
    database: t.db,
    env: { RATE_LIMIT_READS_PER_MINUTE: '1', RATE_LIMIT_WRITES_PER_MINUTE: '1' },
  })
  try {
    await call('getWorkspace', 'GET', '/v1/workspace', { as: 'spare-key' }, limited.app)
    const over = await call(
      'getWorkspace',
      'GET',
      '/v1/workspace',
      { as: 'spare-key' },
      limited.app,
    )
    assert.equal(over.status, 429)
    // A write over its budget too: refused before it is tried.
    await call(
      'createComment',
      'POST',
      '/v1/comments',
      { as: 'olive-key', body: { resource_id: id('t-open'), body: 'Over' } },
      limited.app,
    )
    await call(
      'createComment',
      'POST',
      '/v1/comments',
      { as: 'olive-key', body: { resource_id: id('t-open'), body: 'Over' } },
      limited.app,
    )
  } finally {
    await limited.close()
  }
}

test('every answer of every operation is what the OpenAPI document declares', async () => {
  await crawlReads()
  await crawlWrites()
  await crawlWebhooks()
  await crawlProjectsAndTeams()
  await crawlPeople()
  await crawlOAuth()
  await crawlRateLimit()
  const violations: Violation[] = exchanges.flatMap((exchange) => validator.check(exchange))
  const report = [
    ...new Set(violations.map((v) => `${v.operation} ${v.status} ${v.pointer}: ${v.message}`)),
  ]
  if (report.length > 0) assert.fail(`${report.length} violations:\n${report.join('\n')}`)
  const crawled = new Set(exchanges.map((exchange) => exchange.operationId))
  const missed = validator.operationIds().filter((operationId) => !crawled.has(operationId))
  assert.deepEqual(missed, [], 'operations of the document the crawl never called')
  const statuses = new Set(exchanges.map((exchange) => exchange.status))
  for (const status of [200, 201, 202, 303, 400, 401, 403, 404, 409, 422, 429])
    assert.ok(statuses.has(status), `the crawl saw a ${status}`)
})

test('the validator sees each kind of lie: status, content type, body, header, request', () => {
  const exchange = (over: Partial<Exchange>): Exchange => ({
    operationId: 'getWorkspace',
    query: {},
    headers: {},
    body: undefined,
    status: 200,
    responseHeaders: { 'content-type': 'application/json', 'x-request-id': 'req_1' },
    responseBody: '{}',
    ...over,
  })
  const lies = (over: Partial<Exchange>) =>
    validator.check(exchange(over)).map((v) => `${v.pointer} ${v.message}`)
  assert.match(lies({ status: 201 }).join(), /status 201 is not declared/)
  assert.match(lies({ responseHeaders: { 'content-type': 'text/plain' } }).join(), /text\/plain/)
  assert.match(lies({}).join(), /must have required property/)
  assert.match(lies({ status: 404 }).join(), /cache-control.*required header is missing/i)
  const allow = { 'content-type': 'application/problem+json', allow: 'GET' }
  assert.match(lies({ status: 404, responseHeaders: allow }).join(), /sent but not declared/)
  const rotate = { operationId: 'rotateApiKey', body: { overlap_seconds: 'soon' } }
  assert.match(lies(rotate).join(), /took a request the document refuses/)
})

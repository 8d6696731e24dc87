import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import fc from 'fast-check'
import type { TSchema } from 'typebox'
import type { ImportResult } from '../../src/bundle/import-bundle.ts'
import { isStorableDay, isStorableTime } from '../../src/lib/storable-dates.ts'
import { TOOLS } from '../../src/mcp/tools/index.ts'
import {
  ALL_READ_SCOPES,
  ALL_WRITE_SCOPES,
  importOk,
  tokenOf,
  webhookBundle,
} from '../harness/bundles.ts'
import { callToolInProcess } from '../harness/mcp-inject.ts'
import { fuzzRuns } from '../harness/property-settings.ts'
import { client, type Reply, startTestApp, type TestApp } from '../harness/test-app.ts'

// Every date and time the API takes, REST and MCP, with dates drawn across and beyond the years
// the service stores (0001 to 9999, lib/storable-dates.ts): never a 5xx; a date outside them is
// a 4xx naming its field. The inputs are read from the OpenAPI document and the tools' schemas,
// so a new date input must be given a request here before this test passes.

let t: TestApp
let ws: ImportResult
let endpointId: string
before(async () => {
  t = await startTestApp({ env: { WEBHOOKS_ALLOW_HTTP_LOOPBACK: 'true' } })
  const bundle = webhookBundle()
  for (const key of bundle.api_keys ?? [])
    if (key.key === 'olive-key')
      key.scopes = [
        ...new Set([...key.scopes, ...ALL_READ_SCOPES, ...ALL_WRITE_SCOPES, 'audit:read']),
      ]
  ws = await importOk(t.db.db, bundle)
  const created = await as().post('/v1/webhooks', { url: 'http://127.0.0.1:9999/hook' })
  assert.equal(created.status, 201, created.body)
  endpointId = created.json.id
})
after(() => t.close())

const as = () => client(t.app, tokenOf(ws, 'olive-key'))
const id = (key: string) => ws.ids[key] as string

type Format = 'date' | 'date-time'
interface Input {
  readonly where: string
  readonly field: string
  readonly format: Format
}

// The request of each operation that takes a date, with `value` at `field`.
const REQUESTS: Record<string, (field: string, value: string) => Promise<Reply>> = {
  listTasks: (field, value) => as().get(`/v1/tasks?${field}=${encodeURIComponent(value)}`),
  createTask: (_, value) => as().post('/v1/tasks?dry_run=true', { title: 'Dated', due: value }),
  updateTask: (_, value) => as().patch(`/v1/tasks/${id('t-open')}?dry_run=true`, { due: value }),
  listActivity: (_, value) => as().get(`/v1/activity?since=${encodeURIComponent(value)}`),
  listProjectActivity: (_, value) =>
    as().get(`/v1/projects/${id('open')}/activity?since=${encodeURIComponent(value)}`),
  search: (field, value) =>
    as().post('/v1/search', {
      query: 'task',
      filters: { [field.split('/').pop() as string]: value },
    }),
  getAttention: (_, value) => as().get(`/v1/attention?since=${encodeURIComponent(value)}`),
  createApiKey: (_, value) =>
    as().post('/v1/api-keys?dry_run=true', {
      name: 'Dated',
      scopes: ['task:read'],
      expires_at: value,
    }),
  listAuditEntries: (field, value) => as().get(`/v1/audit?${field}=${encodeURIComponent(value)}`),
  recoverWebhookDeliveries: (_, value) =>
    as().post(`/v1/webhooks/${endpointId}/recover`, { since: value }),
}

// Each tool's arguments around a date at `field`.
const TOOL_CALLS: Record<string, (field: string, value: string) => Record<string, unknown>> = {
  workspace: (_, value) => ({ since: value }),
  activity: (_, value) => ({ since: value }),
  create_task: (_, value) => ({ title: 'Dated', due: value, dry_run: true }),
  update_task: (_, value) => ({ task_id: id('t-open'), due: value, dry_run: true }),
  search: (field, value) => ({
    query: 'task',
    filters: { [field.split('/').pop() as string]: value },
  }),
  list: (field, value) => ({ type: 'task', [field.split('/').pop() as string]: value }),
}

/** Every date input of the OpenAPI document: operation, field, format. */
async function restInputs(): Promise<Input[]> {
  const doc = (await as().get('/v1/openapi.json')).json
  const found = new Map<string, Input>()
  const walk = (schema: Record<string, unknown> | undefined, where: string, field: string) => {
    if (!schema || typeof schema !== 'object') return
    const ref = schema.$ref as string | undefined
    if (ref) return walk(doc.components.schemas[ref.split('/').pop() as string], where, field)
    if (schema.format === 'date' || schema.format === 'date-time')
      found.set(`${where} ${field} ${schema.format}`, { where, field, format: schema.format })
    for (const key of ['anyOf', 'oneOf', 'allOf'])
      for (const branch of (schema[key] as Record<string, unknown>[] | undefined) ?? [])
        walk(branch, where, field)
    for (const [name, property] of Object.entries((schema.properties ?? {}) as object))
      walk(property, where, field ? `${field}/${name}` : name)
  }
  for (const item of Object.values(doc.paths) as Record<string, Record<string, unknown>>[])
    for (const operation of Object.values(item)) {
      const where = operation.operationId as string | undefined
      if (!where) continue
      for (const parameter of (operation.parameters ?? []) as Record<string, unknown>[])
        walk(parameter.schema as Record<string, unknown>, where, parameter.name as string)
      const content = (operation.requestBody as { content?: Record<string, { schema?: object }> })
        ?.content
      walk(content?.['application/json']?.schema as Record<string, unknown>, where, '')
    }
  return [...found.values()]
}

/** Every date input of the MCP tools. */
function toolInputs(): Input[] {
  const found: Input[] = []
  const walk = (schema: TSchema | undefined, where: string, field: string) => {
    if (!schema || typeof schema !== 'object') return
    const format = (schema as { format?: string }).format
    if (format === 'date' || format === 'date-time') found.push({ where, field, format })
    for (const key of ['anyOf', 'oneOf', 'allOf'])
      for (const branch of ((schema as Record<string, unknown>)[key] as TSchema[] | undefined) ??
        [])
        walk(branch, where, field)
    for (const [name, property] of Object.entries(
      ((schema as { properties?: Record<string, TSchema> }).properties ?? {}) as object,
    ))
      walk(property as TSchema, where, field ? `${field}/${name}` : name)
  }
  for (const tool of TOOLS) walk(tool.input, tool.name, '')
  return found
}

const pad = (n: number, width: number) => String(n).padStart(width, '0')
// Years at and around both ends of the range, and some in it.
const year = fc.oneof(
  fc.constantFrom(0, 1, 2, 9998, 9999, 10000),
  fc.integer({ min: 0, max: 10_000 }),
)
const day = fc
  .record({ y: year, m: fc.integer({ min: 0, max: 13 }), d: fc.integer({ min: 0, max: 32 }) })
  .map(({ y, m, d }) => `${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}`)
const time = fc
  .record({
    day,
    h: fc.integer({ min: 0, max: 24 }),
    s: fc.constantFrom(0, 59, 60),
    zone: fc.constantFrom('Z', '+00:00', '+01:00', '-01:00', '+23:59', '-23:59', '+24:00', ''),
  })
  .map(({ day, h, s, zone }) => `${day}T${pad(h, 2)}:00:${pad(s, 2)}${zone}`)
const dateValue = fc.oneof(
  day,
  time,
  fc.constantFrom('0000-01-01', '0001-01-01', '9999-12-31', '0001-01-01T00:00:00+01:00'),
)

const storable = (format: Format, value: string) =>
  format === 'date' ? isStorableDay(value) : isStorableTime(value)
// The field as an answer names it: a pointer's last segment, or the parameter.
const nameOf = (field: string) => field.split('/').pop() as string

test('every REST date input: never a 5xx, and a date out of range is a 4xx naming its field', async () => {
  const inputs = await restInputs()
  assert.ok(inputs.length >= 10, `${inputs.length} inputs`)
  const missing = inputs.filter((input) => !REQUESTS[input.where]).map((input) => input.where)
  assert.deepEqual(missing, [], 'each date input needs a request here')
  const counts = { sent: 0, refused: 0 }
  await fc.assert(
    fc.asyncProperty(dateValue, async (value) => {
      for (const input of inputs) {
        const reply = await (REQUESTS[input.where] as (f: string, v: string) => Promise<Reply>)(
          input.field,
          value,
        )
        counts.sent++
        const what = `${input.where} ${input.field}=${value}: ${reply.status} ${reply.body.slice(0, 300)}`
        assert.ok(reply.status < 500, what)
        if (storable(input.format, value)) continue
        // A field that takes a day or a time (search's date filters) refuses only what is neither.
        const alsoDay = inputs.some(
          (x) => x.where === input.where && x.field === input.field && x.format === 'date',
        )
        const alsoTime = inputs.some(
          (x) => x.where === input.where && x.field === input.field && x.format === 'date-time',
        )
        if ((alsoDay && isStorableDay(value)) || (alsoTime && isStorableTime(value))) continue
        counts.refused++
        assert.equal(reply.status, 422, what)
        assert.ok(reply.body.includes(nameOf(input.field)), what)
      }
    }),
    { numRuns: fuzzRuns(60), seed: 20261129 },
  )
  assert.ok(counts.refused > 0, JSON.stringify(counts))
})

test('every MCP date argument: never a failure of ours, and a date out of range names its field', async () => {
  const inputs = toolInputs()
  const missing = inputs.filter((input) => !TOOL_CALLS[input.where]).map((input) => input.where)
  assert.deepEqual(missing, [], 'each date argument needs a call here')
  await fc.assert(
    fc.asyncProperty(dateValue, async (value) => {
      for (const input of inputs) {
        const args = (TOOL_CALLS[input.where] as (f: string, v: string) => Record<string, unknown>)(
          input.field,
          value,
        )
        const answer = await callToolInProcess(t.app, tokenOf(ws, 'olive-key'), input.where, args)
        const text = JSON.stringify(answer)
        const what = `${input.where} ${input.field}=${value}: ${text.slice(0, 300)}`
        assert.doesNotMatch(text, /Error 5\d\d/, what)
        if (storable(input.format, value)) continue
        const other = inputs.find(
          (x) => x.where === input.where && x.field === input.field && x !== input,
        )
        if (other && storable(other.format, value)) continue
        assert.equal(answer.isError, true, what)
        assert.ok(text.includes(nameOf(input.field)), what)
      }
    }),
    { numRuns: fuzzRuns(30), seed: 20261129 },
  )
})

test('dates in a question: never a 5xx, on REST and MCP', async () => {
  await fc.assert(
    fc.asyncProperty(
      dateValue,
      fc.constantFrom(
        'changed since',
        'due<',
        'due<=',
        'due>',
        'updated>',
        'updated<',
        'due before',
        'done after',
      ),
      async (value, words) => {
        const query = `${words}${words.endsWith('<') || words.endsWith('>') || words.endsWith('=') ? '' : ' '}${value}`
        const reply = await as().post('/v1/search', { query })
        assert.ok(reply.status < 500, `${query}: ${reply.status} ${reply.body.slice(0, 300)}`)
        const answer = await callToolInProcess(t.app, tokenOf(ws, 'olive-key'), 'search', { query })
        assert.doesNotMatch(JSON.stringify(answer), /Error 5\d\d/, query)
      },
    ),
    { numRuns: fuzzRuns(60), seed: 20261129 },
  )
})

import assert from 'node:assert/strict'
import { test } from 'node:test'
import { countTokens } from '../lib/token-budget.ts'
import { packSummary } from './pack-summary.ts'
import type { SummaryBody } from './summary.schemas.ts'
import {
  marker,
  named,
  quoted,
  quotedField,
  type SourceRef,
  SummaryBuilder,
} from './summary-builder.ts'

const VERSION = '2026-11-20T08:30:00.000Z'
const APP = 'https://app.workgraph.example/wsp_385r4h1drgn26tes0vn6469g3j'
const ref = (n: number): SourceRef => ({
  updated_at: '2026-11-18T00:00:00.000Z',
  id: `tsk_${String(n).padStart(26, '0')}`,
  type: 'task',
  title: `Neighbour number ${n}`,
  url: `${APP}/task/tsk_${String(n).padStart(26, '0')}`,
})

// A summary with every kind of detail: 8 statements (some quoting), facts and links.
function builder(): SummaryBuilder {
  const b = new SummaryBuilder()
  b.say`This task is blocked; it is assigned to ${named(ref(1))}.`
  b.say`It belongs to project ${named(ref(2))}.`
  b.say`On 2026-11-18, “Kemi” commented${quoted('Merged this morning, on staging soon.')}${marker(ref(3))}.`
  const description = '\nCustomers raised  this in three tickets last week.'
  const origin = { id: 'tsk_0w01hxgg2yxat55sys29zpgb1t', updated_at: VERSION, field: 'description' }
  b.sayQuote`Its description says${quotedField(origin, description, ' ', 30)}.`
  for (let n = 4; n <= 7; n++) b.say`It is related to ${named(ref(n))}.`
  for (const name of ['status', 'due', 'overdue', 'subtasks', 'comments']) b.fact(name, 1)
  b.link('project', ref(2)).link('assignee', ref(1)).link('canvas', ref(8))
  return b
}

const header = (title = 'Invite teammates from the checklist') => ({
  id: 'tsk_0w01hxgg2yxat55sys29zpgb1t',
  type: 'task',
  title,
  url: `${APP}/task/tsk_0w01hxgg2yxat55sys29zpgb1t`,
  as_of: '2026-11-22T12:00:00.000Z',
})

test("a field's quote is cited by its field, version and range, also when cut", () => {
  const body = JSON.parse(packSummary(header(), builder(), 20_000)) as SummaryBody
  assert.match(body.text, /Its description says “Customers raised this in…”\./)
  assert.deepEqual(body.quotes, [
    {
      id: 'tsk_0w01hxgg2yxat55sys29zpgb1t',
      updated_at: VERSION,
      field: 'description',
      range: { start: 1, end: 26 },
    },
  ])
})

test('every budget from 100 up fits, and detail goes links, quotes, facts, statements', () => {
  const whole = JSON.parse(packSummary(header(), builder(), 20_000)) as SummaryBody
  assert.equal(whole.truncated, false)
  assert.equal(whole.links.length, 3)
  let before: SummaryBody | undefined
  for (let maxTokens = 1000; maxTokens >= 100; maxTokens -= 3) {
    const text = packSummary(header(), builder(), maxTokens)
    const body = JSON.parse(text) as SummaryBody
    assert.ok(countTokens(text) <= maxTokens, `${maxTokens}: ${text}`)
    assert.equal(body.budget.used_tokens, countTokens(text))
    const quotes = (b: SummaryBody) => (b.text.match(/“Merged|“Customers/g) ?? []).length
    // Only the field's quote is cited, and only while it is shown.
    assert.equal(body.quotes.length, /“Customers/.test(body.text) ? 1 : 0, text)
    const facts = (b: SummaryBody) => Object.keys(b.facts).length
    if (body.links.length > 0) assert.equal(quotes(body), 2, text)
    if (quotes(body) > 0) assert.equal(facts(body), 5, text)
    if (facts(body) > 0) assert.match(body.text, /It is related to “Neighbour number 7”/)
    if (before) {
      // A smaller budget never keeps more of anything.
      assert.ok(body.links.length <= before.links.length)
      assert.ok(facts(body) <= facts(before) && body.text.length <= before.text.length)
    }
    before = body
  }
  assert.equal(before?.truncated, true)
  assert.equal(before?.url, undefined, 'the url goes before the first statement is cut')
})

test('a link names a source by number and repeats no url', () => {
  const text = packSummary(header(), builder(), 20_000)
  const body = JSON.parse(text) as SummaryBody
  assert.deepEqual(body.links, [
    { rel: 'project', source: 2 },
    { rel: 'assignee', source: 1 },
    { rel: 'canvas', source: 8 },
  ])
  for (const source of body.sources) assert.equal(text.split(source.url).length, 2)
})

test('a title too long for 100 tokens is cut and marked', () => {
  const long = 'A title that goes on and on, '.repeat(30)
  const text = packSummary(header(long), builder(), 100)
  const body = JSON.parse(text) as SummaryBody
  assert.ok(countTokens(text) <= 100, text)
  assert.equal(body.truncated, true)
  assert.ok(body.title.endsWith('…') && long.startsWith(body.title.slice(0, -1)))
})

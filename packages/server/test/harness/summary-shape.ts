import assert from 'node:assert/strict'
import Value from 'typebox/value'
import { countTokens } from '../../src/lib/token-budget.ts'
import { type SummaryBody, SummaryResponse } from '../../src/summaries/summary.schemas.ts'

/**
 * Checks the promises every summary makes, whatever its budget: it matches the response schema,
 * `used_tokens` counts the very body and is at most `max_tokens`, every [n] and link points at
 * a source, every source is used, and each URL and source id appears exactly once.
 */
export function assertValidSummary(body: string, maxTokens: number, label = ''): SummaryBody {
  const json = JSON.parse(body) as SummaryBody
  assert.ok(Value.Check(SummaryResponse, json), `${label}: matches the schema: ${body}`)
  assert.equal(json.budget.max_tokens, maxTokens, label)
  assert.equal(json.budget.used_tokens, countTokens(body), `${label}: used_tokens counts the body`)
  assert.ok(json.budget.used_tokens <= maxTokens, `${label}: within ${maxTokens}: ${body}`)
  const markers = [...json.text.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1]))
  const linked = json.links.map((link) => link.source)
  for (const n of [...markers, ...linked])
    assert.ok(n >= 1 && n <= json.sources.length, `${label}: [${n}] points at a source: ${body}`)
  assert.deepEqual(
    [...new Set([...markers, ...linked])].sort((a, b) => a - b),
    json.sources.map((_, i) => i + 1),
    `${label}: every source is used`,
  )
  const urls = [json.url, ...json.sources.map((s) => s.url)].filter((u) => u !== undefined)
  for (const url of urls)
    assert.equal(body.split(`"${url}"`).length - 1, 1, `${label}: ${url} appears once`)
  const ids = json.sources.map((s) => s.id)
  assert.equal(new Set([json.id, ...ids]).size, ids.length + 1, `${label}: ids appear once`)
  return json
}

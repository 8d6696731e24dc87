import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { test } from 'node:test'
import { generatedTypes } from '../scripts/generate-types.ts'

test('src/generated/openapi.ts is what docs/openapi.json generates (npm run generate -w @workgraph/sdk)', async () => {
  const committed = readFileSync(new URL('../src/generated/openapi.ts', import.meta.url), 'utf8')
  assert.equal(await generatedTypes(), committed)
})

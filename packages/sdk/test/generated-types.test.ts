import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { test } from 'node:test'
import { generatedOperations, generatedTypes } from '../scripts/generate-types.ts'

const committed = (name: string) =>
  readFileSync(new URL(`../src/generated/${name}`, import.meta.url), 'utf8')

test('src/generated/openapi.ts is what docs/openapi.json generates (npm run generate -w @workgraph/sdk)', async () => {
  assert.equal(await generatedTypes(), committed('openapi.ts'))
})

test('src/generated/operations.ts is what docs/openapi.json generates (npm run generate -w @workgraph/sdk)', () => {
  assert.equal(generatedOperations(), committed('operations.ts'))
})

import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { test } from 'node:test'
import { PROBLEMS } from '../../src/api/problem-catalogue.ts'
import { SETTINGS } from '../../src/config.ts'

const doc = (name: string) =>
  readFileSync(new URL(`../../../../docs/${name}`, import.meta.url), 'utf8')

test('docs/errors.md documents exactly the codes of the catalogue, with their statuses', () => {
  const text = doc('errors.md')
  const documented = [...text.matchAll(/^\|\s*`([a-z_]+)`\s*\|\s*(\d{3})\s*\|/gm)].map((m) => [
    m[1],
    Number(m[2]),
  ])
  assert.deepEqual(
    documented.sort(),
    Object.entries(PROBLEMS)
      .map(([code, { status }]) => [code, status])
      .sort(),
  )
})

test("docs/errors.md's table says what each code means in the words of its error page", () => {
  const rows = doc('errors.md').matchAll(/^\|\s*`([a-z_]+)`\s*\|\s*\d{3}\s*\|\s*(.*?)\s*\|\s*$/gm)
  const documented = Object.fromEntries([...rows].map((m) => [m[1], m[2]]))
  for (const [code, problem] of Object.entries(PROBLEMS))
    assert.equal(documented[code], problem.meaning, code)
})

test('docs/configuration.md documents exactly the settings of config.ts', () => {
  const text = doc('configuration.md')
  const documented = [...text.matchAll(/^\|\s*`([A-Z_]+)`\s*\|/gm)].map((m) => m[1]).sort()
  assert.deepEqual(documented, SETTINGS.map((s) => s.env).sort())
})

test('the README gives the two commands on its first screen', () => {
  const readme = readFileSync(new URL('../../../../README.md', import.meta.url), 'utf8')
  const firstScreen = readme.split('\n').slice(0, 40).join('\n')
  assert.match(firstScreen, /npm ci && npm start/)
  assert.match(firstScreen, /npm ci && npm test/)
})

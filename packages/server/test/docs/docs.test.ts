import assert from 'node:assert/strict'
import { existsSync, readFileSync } from 'node:fs'
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

test('the license the packages declare is the LICENSE file beside them', () => {
  const root = new URL('../../../../', import.meta.url)
  const license = readFileSync(new URL('LICENSE', root), 'utf8')
  assert.match(license, /^\s*Apache License\s+Version 2\.0, January 2004/)
  for (const manifest of [
    'package.json',
    'packages/server/package.json',
    'packages/sdk/package.json',
  ])
    assert.equal(JSON.parse(readFileSync(new URL(manifest, root), 'utf8')).license, 'Apache-2.0')
})

test("CONTRIBUTING.md's links lead to files, and its npm scripts exist", () => {
  const root = new URL('../../../../', import.meta.url)
  const text = readFileSync(new URL('CONTRIBUTING.md', root), 'utf8')
  for (const [, target] of text.matchAll(/\]\(([^)#]+)(?:#[^)]*)?\)/g))
    if (!/^https?:/.test(target as string))
      assert.ok(existsSync(new URL(target as string, root)), `${target} exists`)
  const scripts = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')).scripts
  for (const [, script] of text.matchAll(/npm run ([a-z:]+)(?![a-z:]| -w)/g))
    assert.ok(scripts[script as string], `npm run ${script}`)
})

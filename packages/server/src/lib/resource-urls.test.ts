import assert from 'node:assert/strict'
import { test } from 'node:test'
import { newId } from './ids.ts'
import { UrlBuilder } from './resource-urls.ts'

const task = newId('task')
const urls = new UrlBuilder({
  appUrl: 'https://app.example/work',
  publicUrl: 'https://api.example',
})

test('the id of a page or api_url this builder made comes back out of it', () => {
  const made = urls.resource(newId('workspace'), 'task', task)
  assert.equal(urls.idIn(made.url), task)
  assert.equal(urls.idIn(made.api_url), task)
  assert.equal(urls.idIn(`${made.url}?tab=comments#c1`), task)
  assert.equal(urls.idIn(`https://api.example/v1/resources/${task}`), task)
})

test('any other URL names no id: another origin, another path, no id, or not a URL', () => {
  for (const text of [
    `https://elsewhere.example/work/wsp_x/task/${task}`,
    `https://app.example/other/wsp_x/task/${task}`,
    `https://app.example/work/wsp_x/task/${task}/more`,
    'https://api.example/v1/workspace',
    'https://api.example/v1/resources/not-an-id/summary',
    task,
    'not a url',
  ])
    assert.equal(urls.idIn(text), undefined, text)
})

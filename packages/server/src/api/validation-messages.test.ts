import assert from 'node:assert/strict'
import { test } from 'node:test'
import { jsonBodyAjv } from './json-validator.ts'
import { fieldName, sentencesOf } from './validation-messages.ts'

// Each keyword the API's schemas use, as the sentence a person reads.
const SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['name'],
  properties: {
    name: { type: 'string', minLength: 2, maxLength: 3 },
    count: { type: 'integer', minimum: 1, maximum: 9 },
    kind: { enum: ['a', 'b'] },
    fixed: { const: true },
    slug: { type: 'string', pattern: '^[a-z]+$' },
    day: { type: 'string', format: 'date' },
    tags: { type: 'array', minItems: 1, maxItems: 2, uniqueItems: true, items: { type: 'string' } },
    due: { anyOf: [{ type: 'string' }, { type: 'null' }] },
    links: { type: 'array', items: { type: 'object', properties: { url: { type: 'string' } } } },
  },
}

function sentences(value: unknown): Record<string, string[]> {
  const validate = jsonBodyAjv().compile(SCHEMA)
  assert.equal(validate(value), false)
  const byPath: Record<string, string[]> = {}
  for (const { path, message } of sentencesOf(validate.errors ?? []))
    byPath[path] = [...(byPath[path] ?? []), message]
  return byPath
}

test('every keyword says what to change, naming the field', () => {
  assert.deepEqual(
    sentences({
      name: 'abcd',
      count: 10,
      kind: 'c',
      fixed: false,
      slug: 'A',
      day: 'soon',
      tags: ['x', 'x', 'y'],
      due: 5,
      links: [{ url: 1 }],
      colour: 'red',
    }),
    {
      '/name': ['name must be at most 3 characters long.'],
      '/count': ['count must be at most 9.'],
      '/kind': ['kind must be one of: a, b.'],
      '/fixed': ['fixed must be true.'],
      '/slug': ['slug must match the pattern ^[a-z]+$.'],
      '/day': ['day must be a date (YYYY-MM-DD) from 0001-01-01 to 9999-12-31.'],
      '/tags': ['tags must have at most 2 items.', 'tags must not list the same item twice.'],
      '/due': ['due must be a string or null.'],
      '/links/0/url': ['links[0].url must be a string.'],
      '/colour': ['unknown field: colour.'],
    },
  )
  assert.deepEqual(sentences({ name: 'a', count: 0, tags: [] }), {
    '/name': ['name must be at least 2 characters long.'],
    '/count': ['count must be at least 1.'],
    '/tags': ['tags must have at least 1 item.'],
  })
  assert.deepEqual(sentences({}), { '/name': ['name is required.'] })
  assert.deepEqual(sentences([]), { '': ['the body must be an object.'] })
})

test('a field is named as a person writes it', () => {
  assert.equal(fieldName('/links/0/url'), 'links[0].url')
  assert.equal(fieldName('/a~1b'), 'a/b')
  assert.equal(fieldName('', 'querystring'), 'the query string')
})

import assert from 'node:assert/strict'
import { test } from 'node:test'
import { expandScopes, isKnownScope, missingScopes, scopesBeyond } from './scopes.ts'

test('aliases of the authentication reference expand to canonical scopes', () => {
  assert.deepEqual([...expandScopes(['goal:read'])], ['okr:read'])
  assert.deepEqual([...expandScopes(['goal:write'])].sort(), [
    'okr:checkin',
    'okr:read',
    'okr:write',
  ])
  assert.deepEqual([...expandScopes(['canvas:write'])].sort(), ['canvas:create', 'canvas:write'])
  assert.ok(isKnownScope('goal:write') && isKnownScope('task:read') && !isKnownScope('task:admin'))
})

test('missing scopes are named', () => {
  assert.deepEqual(missingScopes(expandScopes(['task:read']), ['task:read', 'task:write']), [
    'task:write',
  ])
  assert.deepEqual(missingScopes(expandScopes(['canvas:write']), ['canvas:create']), [])
  assert.deepEqual(missingScopes(expandScopes(['unknown:scope']), ['project:read']), [
    'project:read',
  ])
})

test('a credential may carry only what its issuer holds, aliases and implied scopes included', () => {
  const issuer = expandScopes(['canvas:write', 'okr:read', 'token:manage'])
  assert.deepEqual(scopesBeyond(issuer, ['canvas:create', 'goal:read', 'token:manage']), [])
  assert.deepEqual(scopesBeyond(issuer, ['goal:write', 'task:read', 'task:read']), [
    'goal:write',
    'task:read',
  ])
  assert.deepEqual(scopesBeyond(expandScopes(['canvas:create']), ['canvas:write']), [
    'canvas:write',
  ])
})

import assert from 'node:assert/strict'
import { test } from 'node:test'
import { KINDS } from '../../src/catalogue/kinds.ts'
import { ACTIVITY_VERBS, EVENT_TYPES } from '../../src/catalogue/verbs.ts'
import { defineBuiltInKinds } from '../../src/kinds/built-in-kinds.ts'
import { webhookEventSchemas } from '../../src/webhooks/webhook-events.schemas.ts'

test('the activity verbs are the kinds’ verbs, named <kind>.<verb>, in catalogue order', () => {
  assert.deepEqual(
    [...ACTIVITY_VERBS],
    [
      'person.joined',
      'person.updated',
      'team.created',
      'team.updated',
      'team.member_added',
      'team.member_removed',
      'project.created',
      'project.updated',
      'project.member_added',
      'project.member_removed',
      'canvas.created',
      'canvas.updated',
      'task.created',
      'task.completed',
      'task.updated',
      'okr.created',
      'okr.checkin',
      'okr.updated',
      'comment.created',
    ],
  )
})

test('the event types are exactly the verbs marked event or directory, and each has a webhook body', () => {
  const marked = Object.values(KINDS).flatMap((kind) =>
    'verbs' in kind
      ? Object.entries(kind.verbs)
          .filter(([, value]) => value === 'event' || value === 'directory')
          .map(([verb]) => `${kind.name}.${verb}`)
      : [],
  )
  assert.deepEqual([...EVENT_TYPES], marked)
  assert.ok(!EVENT_TYPES.includes('canvas.created' as never), 'canvas.created is activity only')
  defineBuiltInKinds()
  const bodies = Object.keys(webhookEventSchemas())
  for (const type of EVENT_TYPES) assert.ok(bodies.includes(type), `${type} has a webhook body`)
})

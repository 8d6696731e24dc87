import type { Bundle } from '../packages/server/src/bundle/bundle.schema.ts'
import { demoBundle } from '../packages/server/src/bundle/demo/demo-bundle.ts'
import {
  READ_SCOPES as READ,
  WRITE_SCOPES as WRITE,
} from '../packages/server/src/bundle/demo/scaled-bundle.ts'

/**
 * The demo workspace `npm start` serves, with the keys the bench loads it with, named as in a
 * generated bundle: the owner (Ada), a member (Elena), a member of two teams in the power
 * member's place (Farid) and a guest (Noor).
 */
export function demoBenchBundle(): Bundle {
  const bundle = demoBundle({ today: new Date().toISOString().slice(0, 10) })
  const key = (name: string, person: string, scopes: string[]) => ({ key: name, person, scopes })
  return {
    ...bundle,
    api_keys: [
      ...(bundle.api_keys ?? []),
      key('owner-key', 'ada', [...READ, ...WRITE]),
      key('member-key', 'elena', [...READ, ...WRITE]),
      key('power-key', 'farid', READ),
      key('guest-key', 'noor', ['project:read', 'canvas:read', 'task:read', 'comment:read']),
    ],
  } as Bundle
}

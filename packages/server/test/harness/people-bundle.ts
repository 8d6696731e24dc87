import type { Bundle } from '../../src/bundle/bundle.schema.ts'
import type { Db } from '../../src/db/database.ts'
import { webhookBundle } from './bundles.ts'

/** The password of every person of `peopleBundle`. */
export const PEOPLE_PASSWORD = 'a long people password'

/**
 * The webhook workspace (bundles.ts) whose people have passwords and whose keys (but
 * `read-only-key` and `narrow-key`) also hold `people:write` and `token:manage`: the writes that
 * shape a workspace's people, tried by every role. `adam-read` is the admin without `people:write`;
 * `lobby` is a project every member opens and no guest does.
 */
export function peopleBundle(): Bundle {
  const base = webhookBundle()
  const extra = ['people:write', 'token:manage']
  return {
    ...base,
    people: base.people.map((person) => ({ ...person, password: PEOPLE_PASSWORD })),
    // Open to every member, and to no guest: what a guest made member starts to see.
    projects: [
      ...(base.projects ?? []),
      {
        key: 'lobby',
        name: 'Lobby project',
        description: 'Every member sees this; no guest belongs to it',
        status: 'active',
        visibility: 'workspace',
        owner: 'olive',
        created_at: '2026-01-03T00:00:00Z',
      },
    ],
    api_keys: [
      ...(base.api_keys ?? []).map((key) =>
        key.key === 'read-only-key' || key.key === 'narrow-key'
          ? key
          : { ...key, scopes: [...new Set([...key.scopes, ...extra])] },
      ),
      { key: 'adam-read', person: 'adam', scopes: ['people:read', 'workspace:read'] },
    ],
  }
}

/** Counts of what a people write leaves behind: invitations, events, audit entries. */
export async function peopleTraces(db: Db, workspaceId: string) {
  const count = async (table: 'invitations' | 'events' | 'audit_log') =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .where('workspace_id', '=', workspaceId)
          .executeTakeFirstOrThrow()
      ).n,
    )
  return {
    invitations: await count('invitations'),
    events: await count('events'),
    audit: await count('audit_log'),
  }
}

import { type Kysely, sql } from 'kysely'
import { hashSecret, lastFour, newSecret, SECRET_PREFIX } from '../access/secrets.ts'
import { DEMO_PASSWORD, demoBundle } from '../bundle/demo/demo-bundle.ts'
import { importBundle } from '../bundle/import-bundle.ts'
import { SCOPES } from '../catalogue/scopes.ts'
import type { Database, Db } from '../db/database.ts'
import { newId } from '../lib/ids.ts'

/** The demo workspace and who the printed key belongs to. */
export interface DemoAccess {
  workspaceId: string
  workspaceName: string
  personName: string
  personEmail: string
  apiKey: string
  password: string
  /** The demo's sample OAuth app (public, redirecting to a loopback callback). */
  oauthClient: { id: string; redirectUri: string } | null
  imported: boolean
}

const DEMO_KEY_NAME = 'Demo key (serve --demo)'

/**
 * Makes sure the demo workspace exists (importing it on first start) and mints a fresh API key
 * for its owner, revoking the key of the previous start: the plaintext key is printed, never
 * stored, so there is no secret at rest to recover it from.
 */
export async function prepareDemo(db: Kysely<Database>, now: Date): Promise<DemoAccess> {
  let workspace = await findDemoWorkspace(db)
  let imported = false
  if (!workspace) {
    const outcome = await importBundle(db, demoBundle({ today: now.toISOString().slice(0, 10) }), {
      now,
    })
    if (!outcome.ok)
      throw new Error(`The demo bundle is invalid: ${JSON.stringify(outcome.problems.slice(0, 3))}`)
    const { workspace_id: workspaceId, ids } = outcome.result
    await db
      .updateTable('workspaces')
      .set({ settings: JSON.stringify({ demo: true, demo_person_id: ids.ada }) as never })
      .where('id', '=', workspaceId)
      .execute()
    workspace = await findDemoWorkspace(db)
    imported = true
  }
  if (!workspace) throw new Error('The demo workspace could not be created.')
  const apiKey = newSecret(SECRET_PREFIX.apiKey)
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('tokens')
      .set({ revoked_at: now })
      .where('workspace_id', '=', workspace.id)
      .where('name', '=', DEMO_KEY_NAME)
      .where('revoked_at', 'is', null)
      .execute()
    await trx
      .insertInto('tokens')
      .values({
        workspace_id: workspace.id,
        id: newId('apiKey'),
        kind: 'api_key',
        person_id: workspace.personId,
        integration_id: null,
        name: DEMO_KEY_NAME,
        scopes: Object.keys(SCOPES),
        secret_hash: hashSecret(apiKey),
        last4: lastFour(apiKey),
        created_at: now,
      })
      .execute()
  })
  const sample = await db
    .selectFrom('oauth_clients')
    .select(['id', 'redirect_uris'])
    .where('workspace_id', '=', workspace.id)
    .orderBy('id')
    .executeTakeFirst()
  return {
    oauthClient: sample ? { id: sample.id, redirectUri: sample.redirect_uris[0] as string } : null,
    workspaceId: workspace.id,
    workspaceName: workspace.name,
    personName: workspace.personName,
    personEmail: workspace.personEmail,
    apiKey,
    password: DEMO_PASSWORD,
    imported,
  }
}

async function findDemoWorkspace(db: Db) {
  const row = await sql<{
    id: string
    name: string
    person_id: string
    person_name: string
    person_email: string
  }>`
    select w.id, w.name, p.id as person_id, p.name as person_name, p.email as person_email
    from workspaces w join people p on p.workspace_id = w.id and p.id = w.settings ->> 'demo_person_id'
    where w.settings ->> 'demo' = 'true'
    order by w.created_at limit 1`.execute(db)
  const found = row.rows[0]
  return found
    ? {
        id: found.id,
        name: found.name,
        personId: found.person_id,
        personName: found.person_name,
        personEmail: found.person_email,
      }
    : undefined
}

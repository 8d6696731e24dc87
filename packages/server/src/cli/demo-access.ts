import { hkdfSync } from 'node:crypto'
import { type Kysely, sql } from 'kysely'
import { hashSecret, lastFour, SECRET_PREFIX, secretFrom } from '../access/secrets.ts'
import { DEMO_PASSWORD, demoBundle } from '../bundle/demo/demo-bundle.ts'
import { importBundle } from '../bundle/import-bundle.ts'
import { SCOPES } from '../catalogue/scopes.ts'
import type { Database, Db } from '../db/database.ts'
import { newId } from '../lib/ids.ts'
import { verifyPassword } from '../lib/password.ts'

/** The demo workspace and who the printed key belongs to. */
export interface DemoAccess {
  workspaceId: string
  workspaceName: string
  personName: string
  personEmail: string
  apiKey: string
  /**
   * The demo key that ended since the last start, when this start had to make a new one (empty
   * otherwise): the key stays the same across starts until it is revoked or the secret changes.
   */
  keyReplaced: { last4: string; revokedAt: Date; byThisStart: boolean }[]
  /** The demo password, while it is still the owner's: null once another was set. */
  password: string | null
  /** The demo's sample OAuth app (public, redirecting to a loopback callback). */
  oauthClient: { id: string; redirectUri: string } | null
  imported: boolean
}

const DEMO_KEY_NAME = 'Demo key (serve --demo)'

/**
 * Makes sure the demo workspace exists (importing it on first start) and that its owner has the
 * demo API key (docs/bundles.md, `serve --demo`): the same key at every start of the same data
 * folder, so what was made with it (webhooks, OAuth grants) outlives a restart.
 */
export async function prepareDemo(
  db: Kysely<Database>,
  now: Date,
  secret: Buffer,
): Promise<DemoAccess> {
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
  const key = await demoKey(db, workspace, secret, now)
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
    apiKey: key.apiKey,
    keyReplaced: key.replaced,
    password: (await stillDemoPassword(db, workspace.id, workspace.personId))
      ? DEMO_PASSWORD
      : null,
    imported,
  }
}

/**
 * The demo key: derived from the service secret and the demo workspace, never stored (only its
 * hash is, as for every key), so each start prints the same key without a secret at rest to
 * recover it from beyond the service secret itself. The n-th demo key is derived from n: one that
 * was revoked stays revoked, and the next start makes the next. A live demo key that is none of
 * them (made with another service secret, or by an earlier version at random) cannot be printed
 * again, so it is revoked, and the start says so.
 */
async function demoKey(
  db: Kysely<Database>,
  workspace: { id: string; personId: string },
  secret: Buffer,
  now: Date,
): Promise<{ apiKey: string; replaced: DemoAccess['keyReplaced'] }> {
  const made = await db
    .selectFrom('tokens')
    .select(['id', 'secret_hash', 'last4', 'revoked_at', 'expires_at'])
    .where('workspace_id', '=', workspace.id)
    .where('name', '=', DEMO_KEY_NAME)
    .orderBy('created_at')
    .execute()
  const keyAt = (n: number) =>
    secretFrom(
      SECRET_PREFIX.apiKey,
      Buffer.from(
        hkdfSync('sha256', secret, Buffer.alloc(0), `workgraph demo key ${workspace.id} ${n}`, 32),
      ),
    )
  const live = (row: (typeof made)[number]) =>
    row.revoked_at === null && (row.expires_at === null || row.expires_at > now)
  for (let n = 0; n < made.length; n++) {
    const apiKey = keyAt(n)
    const hash = hashSecret(apiKey)
    const row = made.find((candidate) => hash.equals(candidate.secret_hash))
    if (row && live(row)) return { apiKey, replaced: [] }
  }
  const apiKey = keyAt(made.length)
  const replaced: DemoAccess['keyReplaced'] = made.flatMap((row) =>
    row.revoked_at ? [{ last4: row.last4, revokedAt: row.revoked_at, byThisStart: false }] : [],
  )
  await db.transaction().execute(async (trx) => {
    const unprintable = made.filter(live)
    if (unprintable.length > 0) {
      await trx
        .updateTable('tokens')
        .set({ revoked_at: now })
        .where('workspace_id', '=', workspace.id)
        .where(
          'id',
          'in',
          unprintable.map((row) => row.id),
        )
        .execute()
      for (const row of unprintable)
        replaced.push({ last4: row.last4, revokedAt: now, byThisStart: true })
    }
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
  // Only the latest end matters to the banner: what stopped working since the last start.
  return { apiKey, replaced: replaced.slice(-1) }
}

// Whether the demo owner still signs in with the demo password (`user set-password` changes it).
async function stillDemoPassword(db: Db, workspaceId: string, personId: string): Promise<boolean> {
  const person = await db
    .selectFrom('people')
    .select('password_hash')
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', personId)
    .executeTakeFirst()
  return person?.password_hash ? verifyPassword(DEMO_PASSWORD, person.password_hash) : false
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

import { parseArgs } from 'node:util'
import { loadConfig } from '../config.ts'
import { createOAuthClient, redirectUriProblem } from '../oauth/oauth-clients.ts'
import { type CliIO, UsageError } from './cli-io.ts'
import { openMigratedDatabase } from './open-database.ts'

/**
 * `workgraph oauth-client create --name NAME --redirect-uri URI… [--confidential]
 * [--workspace wsp_…] [--json]`: registers an app. Public clients (the default: native apps,
 * single-page apps, agents) have no secret and rely on PKCE; confidential ones get a secret,
 * printed once. With `--workspace`, only that workspace's people can authorize it.
 */
export async function oauthClientCommand(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      'redirect-uri': { type: 'string', multiple: true },
      confidential: { type: 'boolean', default: false },
      workspace: { type: 'string' },
      json: { type: 'boolean', default: false },
      data: { type: 'string' },
      'database-url': { type: 'string' },
    },
    strict: true,
  })
  if (positionals.length !== 1 || positionals[0] !== 'create') {
    throw new UsageError('Usage: workgraph oauth-client create --name NAME --redirect-uri URI')
  }
  const name = values.name?.trim()
  const redirectUris = values['redirect-uri'] ?? []
  if (!name) throw new UsageError('Give the app a --name.')
  if (redirectUris.length === 0) throw new UsageError('Give at least one --redirect-uri.')
  for (const uri of redirectUris) {
    const problem = redirectUriProblem(uri)
    if (problem) throw new UsageError(`--redirect-uri ${uri} ${problem}.`)
  }
  const config = loadConfig(io.env, { data: values.data, databaseUrl: values['database-url'] })
  const handle = await openMigratedDatabase(config)
  try {
    if (values.workspace) {
      const workspace = await handle.db
        .selectFrom('workspaces')
        .select('id')
        .where('id', '=', values.workspace)
        .executeTakeFirst()
      if (!workspace) {
        io.stderr.write(`There is no workspace ${values.workspace}.\n`)
        return 1
      }
    }
    const issued = await createOAuthClient(handle.db, {
      name,
      redirectUris,
      public: !values.confidential,
      workspaceId: values.workspace ?? null,
    })
    if (values.json) {
      io.stdout.write(`${JSON.stringify(issued, null, 2)}\n`)
      return 0
    }
    io.stdout.write(
      [
        `Registered the ${values.confidential ? 'confidential' : 'public'} OAuth client "${name}".`,
        `client_id:     ${issued.client_id}`,
        ...(issued.client_secret
          ? [`client_secret: ${issued.client_secret}   (shown only now; only a hash is stored)`]
          : []),
        `Authorization server metadata: ${config.publicUrl.replace(/\/+$/, '')}/.well-known/oauth-authorization-server`,
        '',
      ].join('\n'),
    )
    return 0
  } finally {
    await handle.close()
  }
}

import type { AppDeps } from '../app-deps.ts'
import { hasWorkspace } from '../setup/setup-lock.ts'
import { issueSetupToken } from '../setup/setup-tokens.ts'

/**
 * What `serve` prints when its database has no workspace yet (nothing when it has one): how to
 * start one from a terminal (`workgraph init`) or in a browser, with a one-time link to the
 * first-run page that this start makes (docs/getting-started-team.md). The link is printed to
 * the operator here and nowhere else: it is never logged.
 */
export async function firstRunLines(deps: AppDeps, where: string): Promise<string[]> {
  if (await hasWorkspace(deps.db)) return []
  const token = await issueSetupToken(deps.db, deps.clock.now())
  const embedded = !deps.config.databaseUrl
  return [
    ``,
    `There is no workspace yet (${where}). Start yours:`,
    `  in a browser, with this one-time link (it works for 24 hours, until a workspace exists):`,
    `    ${deps.config.publicUrl}/setup?token=${token}`,
    `  or in a terminal${embedded ? ', once this server is stopped (it holds the embedded database)' : ''}:`,
    `    workgraph init --workspace-name "Your team" --name "Your name" --email you@example.com`,
    `(workgraph serve --demo starts with a demo workspace instead.)`,
  ]
}

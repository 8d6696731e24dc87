import { join } from 'node:path'
import type { Config } from '../config.ts'

/**
 * What a backup leaves out and the operator must keep: the server's secret, which encrypts the
 * webhook signing secrets the backup carries (docs/operations.md, "Backups and restore").
 */
export function secretKeeping(config: Config, env: NodeJS.ProcessEnv): string {
  const where =
    env.WORKGRAPH_SECRET || config.databaseUrl
      ? 'WORKGRAPH_SECRET'
      : `the secret in ${join(config.dataDir, 'secret')}`
  return (
    `The backup holds no server secret: keep ${where} safely apart from it, and restore with ` +
    'the same one (docs/operations.md, "Backups and restore").'
  )
}

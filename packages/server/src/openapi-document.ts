import { PGlite } from '@electric-sql/pglite'
import { buildApp } from './app.ts'
import { createAppDeps } from './app-deps.ts'
import { loadConfig } from './config.ts'
import { openDatabase } from './db/connect.ts'
import { migrateToLatest } from './db/migrate.ts'
import { systemClock } from './lib/clock.ts'

/** The server address the committed document names (the address `npm start` listens on). */
export const DOCUMENT_PUBLIC_URL = 'http://127.0.0.1:8080'

/**
 * Builds the OpenAPI document exactly as a server at DOCUMENT_PUBLIC_URL serves it, on a blank
 * in-memory database, so that `npm run openapi` and the drift test need no running service.
 */
export async function generateOpenApiDocument(): Promise<unknown> {
  const blank = new PGlite()
  await blank.waitReady
  const handle = await openDatabase({
    kind: 'embedded-clone',
    dump: await blank.dumpDataDir('none'),
  })
  try {
    await migrateToLatest(handle.db)
    const deps = createAppDeps({
      db: handle.db,
      engine: handle.engine,
      config: loadConfig({ LOG_LEVEL: 'silent', PUBLIC_URL: DOCUMENT_PUBLIC_URL }),
      secret: Buffer.alloc(32),
      clock: systemClock,
    })
    const app = await buildApp(deps)
    await app.ready()
    const document = app.swagger()
    await app.close()
    return document
  } finally {
    await handle.close()
    await blank.close()
  }
}

/** Runs PGlite's initdb on the folder given as the only argument (see embedded-initdb.ts). */
import { PGlite } from '@electric-sql/pglite'
import { extensions } from './connect.ts'
import { EMBEDDED_START_PARAMS } from './embedded-settings.ts'

const pglite = new PGlite(process.argv[2], { extensions, startParams: EMBEDDED_START_PARAMS })
await pglite.waitReady
await pglite.close()

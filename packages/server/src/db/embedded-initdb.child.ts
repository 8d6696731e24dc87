/** Runs PGlite's initdb on the folder given as the only argument (see embedded-initdb.ts). */
import { Socket } from 'node:net'
import { PGlite } from '@electric-sql/pglite'
import { extensions } from './connect.ts'
import { EMBEDDED_START_PARAMS } from './embedded-settings.ts'

// The process that started this one holds fd 3 open until it ends: the draft is then nobody's.
const parent = new Socket({ fd: 3, readable: true, writable: false })
parent.on('end', () => process.exit(1))
parent.on('error', () => process.exit(1))
parent.resume()
parent.unref()

const pglite = new PGlite(process.argv[2], { extensions, startParams: EMBEDDED_START_PARAMS })
await pglite.waitReady
await pglite.close()

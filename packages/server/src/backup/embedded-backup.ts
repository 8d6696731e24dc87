import { writeFileSync } from 'node:fs'
import type { Config } from '../config.ts'
import { openDatabase } from '../db/connect.ts'
import { DataDirLockedError } from '../db/embedded-lock.ts'
import { writeAtomically } from './atomic-file.ts'
import { BackupFailure } from './backup-failure.ts'
import { holdsDatabase } from './embedded-folder.ts'
import { snapshotEmbedded } from './embedded-snapshot.ts'
import { NoSnapshotChannel, requestSnapshot } from './snapshot-channel.ts'

/** Who took an embedded snapshot: the running server that holds the folder, or this process. */
export type SnapshotTaker = 'server' | 'this process'

/**
 * Backs the embedded database in `config.dataDir` up into `out`. When no process holds the folder
 * this one opens it and takes the snapshot; when a server holds it, the server takes it and hands
 * it over (backup/snapshot-channel.ts). Either way the snapshot is consistent, and `out` appears
 * whole or not at all.
 */
export async function backupEmbedded(config: Config, out: string): Promise<SnapshotTaker> {
  const { dataDir } = config
  if (!holdsDatabase(dataDir))
    throw new BackupFailure(
      `There is no embedded database in ${dataDir}, so there is nothing to back up.`,
    )
  let taker: SnapshotTaker = 'this process'
  await writeAtomically(out, async (temporary) => {
    const snapshot = await takeSnapshot(config)
    taker = snapshot.taker
    writeFileSync(temporary, snapshot.bytes)
  })
  return taker
}

async function takeSnapshot(config: Config): Promise<{ bytes: Buffer; taker: SnapshotTaker }> {
  const { dataDir } = config
  // Two rounds: a server that stops between the two steps frees the folder for the second.
  for (let round = 1; ; round++) {
    let handle: Awaited<ReturnType<typeof openDatabase>>
    try {
      handle = await openDatabase({ kind: 'embedded', dataDir, durable: config.embeddedFsync })
    } catch (error) {
      if (!(error instanceof DataDirLockedError)) throw error
      try {
        return { bytes: await requestSnapshot(dataDir), taker: 'server' }
      } catch (refused) {
        if (!(refused instanceof NoSnapshotChannel)) throw refused
        if (round < 2) continue
        throw new BackupFailure(
          `${error.message.replace(/ Stop that process.*$/, '')} It does not hand out ` +
            'snapshots: only `workgraph serve` does, and this is another command (an import, ' +
            'a migration) or an older server. Wait for it to end, or stop it, then run backup again.',
        )
      }
    }
    try {
      return { bytes: await snapshotEmbedded(handle), taker: 'this process' }
    } finally {
      await handle.close()
    }
  }
}

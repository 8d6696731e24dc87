// A process that contends for a data folder's lock on command, for test/db/data-folder-lock.test.ts.
// Reads lines from stdin: `take` tries the lock and answers `held` or `refused`; `release` lets
// it go and answers `released`. Run with the folder as its argument.
import { createInterface } from 'node:readline'
import { type DataDirLock, DataDirLockedError, lockDataDir } from '../../src/db/embedded-lock.ts'

const dataDir = process.argv[2] as string
let lock: DataDirLock | null = null
process.stdout.write('ready\n')
for await (const line of createInterface({ input: process.stdin })) {
  if (line === 'take') {
    try {
      lock = await lockDataDir(dataDir)
      process.stdout.write('held\n')
    } catch (error) {
      if (!(error instanceof DataDirLockedError)) throw error
      process.stdout.write('refused\n')
    }
  } else if (line === 'release') {
    await lock?.release()
    lock = null
    process.stdout.write('released\n')
  }
}

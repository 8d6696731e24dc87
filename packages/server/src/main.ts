#!/usr/bin/env node
import { endWithParent, runEmbeddedImportInChild } from './cli/embedded-import-process.ts'
import { limitHeapGrowth } from './lib/heap-growth.ts'
import { applyMallocSettings } from './lib/malloc-settings.ts'

// The process entry: everything else lives in cli/ and app.ts so that tests can drive it.
const argv = process.argv.slice(2)
applyMallocSettings(argv)
limitHeapGrowth()
endWithParent(process.env)
process.exitCode = (await runEmbeddedImportInChild(argv, process.env)) ?? (await runHere(argv))

// The commands are loaded only by the process that runs one: an embedded import's parent waits.
async function runHere(args: string[]): Promise<number> {
  const [{ runCli }, { processIO }] = await Promise.all([
    import('./cli/run-cli.ts'),
    import('./cli/cli-io.ts'),
  ])
  return runCli(args, processIO())
}

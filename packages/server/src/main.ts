#!/usr/bin/env node
import { processIO } from './cli/cli-io.ts'
import { runCli } from './cli/run-cli.ts'
import { limitHeapGrowth } from './lib/heap-growth.ts'

// The process entry: everything else lives in cli/ and app.ts so that tests can drive it.
limitHeapGrowth()
process.exitCode = await runCli(process.argv.slice(2), processIO())

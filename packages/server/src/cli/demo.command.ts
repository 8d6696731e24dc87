import { writeFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { demoBundle } from '../bundle/demo/demo-bundle.ts'
import { scaledBundle } from '../bundle/demo/scaled-bundle.ts'
import { isStorableDay } from '../lib/storable-dates.ts'
import { type CliIO, CommandFailure, UsageError } from './cli-io.ts'

/** `workgraph demo [--out FILE] [--scale N] [--seed S] [--today YYYY-MM-DD]`: writes a bundle. */
export async function demoCommand(args: string[], io: CliIO): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      out: { type: 'string' },
      scale: { type: 'string' },
      seed: { type: 'string' },
      today: { type: 'string' },
    },
    strict: true,
  })
  const today = values.today ?? new Date().toISOString().slice(0, 10)
  if (!isStorableDay(today))
    throw new UsageError('--today must be a date (YYYY-MM-DD) from 0001-01-01 to 9999-12-31.')
  let bundle: object
  if (values.scale !== undefined) {
    const scale = Number(values.scale)
    if (!Number.isInteger(scale) || scale < 10 || scale > 5_000_000)
      throw new UsageError('--scale must be a whole number from 10 to 5,000,000.')
    bundle = scaledBundle({ scale, seed: values.seed ?? 1, ...(values.today ? { today } : {}) })
  } else {
    bundle = demoBundle({ seed: values.seed ?? 'orbit', today })
  }
  const json = `${JSON.stringify(bundle, null, values.scale ? 0 : 2)}\n`
  if (values.out) {
    try {
      writeFileSync(values.out, json)
    } catch (error) {
      throw new CommandFailure(`Cannot write ${values.out}: ${(error as Error).message}`)
    }
    io.stderr.write(`Wrote ${values.out} (${(json.length / 1024).toFixed(0)} KiB).\n`)
  } else {
    io.stdout.write(json)
  }
  return 0
}

/**
 * Runs `workgraph import … --json` in this process and prints what it created with the time it
 * took and this process's peak memory: the benchmark starts one per engine. The bench's people
 * are u0, u1, u2 and u5 of a generated bundle; `BENCH_PEOPLE` (`u0=ada,u1=farid,…`) names
 * other bundle keys for them (the demo workspace).
 */
import { runCli } from '../packages/server/src/cli/run-cli.ts'
import { limitHeapGrowth } from '../packages/server/src/lib/heap-growth.ts'

limitHeapGrowth() // as the `workgraph` command does

let stdout = ''
const started = performance.now()
const code = await runCli(['import', ...process.argv.slice(2), '--json'], {
  stdout: { write: (text: string) => (stdout += text) },
  stderr: process.stderr,
  env: process.env,
})
const seconds = (performance.now() - started) / 1000
if (code !== 0) {
  process.stderr.write(stdout)
  process.exit(code)
}
const result = JSON.parse(stdout)
process.stdout.write(
  JSON.stringify({
    seconds,
    peakRssMb: process.resourceUsage().maxRSS / 1024,
    result: {
      workspace_id: result.workspace_id,
      api_keys: result.api_keys,
      ids: Object.fromEntries(benchPeople().map(([as, key]) => [as, result.ids[key]])),
    },
  }),
)

// [bench name, bundle key] of the four people the bench reads as.
function benchPeople(): [string, string][] {
  const named = process.env.BENCH_PEOPLE ?? 'u0=u0,u1=u1,u2=u2,u5=u5'
  return named.split(',').map((pair) => pair.split('=') as [string, string])
}

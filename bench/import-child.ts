/**
 * Runs `workgraph import … --json` in this process and prints what it created with the time it
 * took and this process's peak memory: the benchmark starts one per engine.
 */
import { runCli } from '../packages/server/src/cli/run-cli.ts'

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
      ids: { u0: result.ids.u0, u1: result.ids.u1, u2: result.ids.u2, u5: result.ids.u5 },
    },
  }),
)

import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { delimiter } from 'node:path'
import { after, before, test } from 'node:test'
import { fileURLToPath } from 'node:url'
import type { ImportResult } from '../../src/bundle/import-bundle.ts'
import { type ListeningApp, startListeningApp } from '../harness/browser-app.ts'
import { importOk, tokenOf, writableBundle } from '../harness/bundles.ts'
import { terminalPath } from '../harness/cli.ts'

// examples/README.md's command, run as written by a shell whose `node` is whatever the machine
// has (Node 20 on a fresh one): `npm run example:…` brings the project's own Node.

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url))
let t: ListeningApp
let ws: ImportResult
before(async () => {
  t = await startListeningApp()
  ws = await importOk(t.db.db, writableBundle())
  // Something blocked for the agent to find.
  await t.db.db
    .updateTable('tasks')
    .set({ status: 'blocked' })
    .where('id', '=', ws.ids['t-open'] as string)
    .execute()
})
after(() => t.close())

// The README's command for the agent, with its placeholders.
function readmeCommand(): string {
  const readme = readFileSync(`${ROOT}examples/README.md`, 'utf8')
  const line = readme.split('\n').find((l) => l.includes('npm run example:agent'))
  assert.ok(line, 'examples/README.md gives the agent’s command')
  return line
}

// The shell's PATH without the project's node_modules/.bin: what a person's terminal has (Node 20
// on a fresh machine); and the same with Node 24 first, as for someone who installed it.
const MACHINE_PATH = terminalPath()
const TERMINALS = {
  "the machine's Node": MACHINE_PATH,
  "the project's Node": `${ROOT}node_modules/.bin${delimiter}${MACHINE_PATH}`,
}

for (const [which, path] of Object.entries(TERMINALS)) {
  test(`the agent example runs with the command examples/README.md gives, on ${which}`, async () => {
    const command = readmeCommand().replace('wg_key_…', tokenOf(ws, 'alice-key'))
    const { code, stdout, stderr } = await run(command, {
      PATH: path,
      HOME: process.env.HOME ?? '',
      WORKGRAPH_URL: t.origin,
    })
    assert.equal(code, 0, stderr)
    const report = JSON.parse(stdout.slice(stdout.indexOf('{')))
    assert.equal(report.question, 'what is blocked?')
    assert.equal(report.found[0]?.id, ws.ids['t-open'], stdout)
    assert.ok(report.followUp?.id, stdout)
  })
}

// Runs a command line in a shell from the repository's root.
function run(
  command: string,
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('sh', ['-c', command], { cwd: ROOT, env })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk))
    child.on('close', (code) => resolve({ code, stdout, stderr }))
  })
}

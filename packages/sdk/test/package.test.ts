import assert from 'node:assert/strict'
import { execFile, execFileSync, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, test } from 'node:test'
import { promisify } from 'node:util'
import type { ImportResult } from '../../server/src/bundle/import-bundle.ts'
import { type ListeningApp, startListeningApp } from '../../server/test/harness/browser-app.ts'
import { importOk, tokenOf, webhookBundle } from '../../server/test/harness/bundles.ts'

// `npm pack`, installed into an empty project the way a user would, then the README's example
// verbatim: typechecked strictly, compiled, and run on the oldest Node.js at hand.
const SDK = join(import.meta.dirname, '..')
const ROOT = join(SDK, '../..')
const OLD_NODE = '/usr/bin/node'
let t: ListeningApp
let ws: ImportResult
let dir: string

before(async () => {
  t = await startListeningApp()
  ws = await importOk(t.db.db, webhookBundle())
  dir = mkdtempSync(join(tmpdir(), 'workgraph-sdk-'))
})
after(async () => {
  await t.close()
  rmSync(dir, { recursive: true, force: true })
})

function readmeExample(): string {
  const readme = readFileSync(join(SDK, 'README.md'), 'utf8')
  const example = /```ts\n([\s\S]*?)```/.exec(readme)?.[1]
  assert.ok(example, 'the README has a ts example')
  return example
}

function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}) {
  const result = spawnSync(command, args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, ...env },
  })
  assert.equal(result.status, 0, `${command} ${args.join(' ')}\n${result.stdout}\n${result.stderr}`)
  return result.stdout
}

// The server answers from this process, so the example must run without blocking it.
async function runExample(node: string, cwd: string, env: NodeJS.ProcessEnv): Promise<string> {
  const { stdout } = await promisify(execFile)(node, ['out/example.js'], {
    cwd,
    env: { ...process.env, ...env },
  })
  return stdout
}

test('the packed SDK installs into an empty project, and the README example typechecks and runs', async () => {
  execFileSync('npm', ['pack', '--pack-destination', dir, '--silent'], { cwd: SDK, stdio: 'pipe' })
  const tarball = readdirSync(dir).find((name) => name.endsWith('.tgz'))
  assert.ok(tarball)
  const listed = execFileSync('tar', ['-tzf', join(dir, tarball)], { encoding: 'utf8' })
  assert.match(listed, /package\/dist\/index\.js/)
  assert.match(listed, /package\/dist\/index\.d\.ts/)
  assert.doesNotMatch(listed, /\.test\.|package\/src\//, 'only the build and the README ship')

  const app = join(dir, 'app')
  run('mkdir', ['-p', app], dir)
  writeFileSync(
    join(app, 'package.json'),
    JSON.stringify({ name: 'app', private: true, type: 'module' }),
  )
  // @noble/hashes, the one dependency, comes from the cache `npm ci` filled when it can; on a
  // fresh machine that cache holds its tarball but not the registry's document npm resolves a
  // range with, so the registry may be asked for that (`--offline` failed there).
  run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', join(dir, tarball)], app)
  writeFileSync(join(app, 'example.ts'), readmeExample())
  writeFileSync(
    join(app, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'es2022',
        lib: ['es2022', 'dom'],
        module: 'nodenext',
        moduleResolution: 'nodenext',
        strict: true,
        noUncheckedIndexedAccess: true,
        exactOptionalPropertyTypes: true,
        skipLibCheck: false,
        outDir: 'out',
        types: ['node'],
        typeRoots: [join(ROOT, 'node_modules/@types')],
      },
      files: ['example.ts'],
    }),
  )
  run(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], app)

  await t.db.db
    .updateTable('tasks')
    .set({ status: 'blocked' })
    .where('id', '=', ws.ids['t-open'] as string)
    .execute()
  const node = existsSync(OLD_NODE) ? OLD_NODE : process.execPath
  const env = { WORKGRAPH_API_KEY: tokenOf(ws, 'alice-key'), WORKGRAPH_URL: t.origin }
  const first = await runExample(node, app, env)
  assert.match(first, /^blocked: Open task$/m)
  assert.match(first, /^objective progress: /m)
  assert.match(first, /^hits: /m)
  assert.match(first, /^task true$/m)
  assert.match(first, /^refused: 422 validation_failed \/title \S+$/m)
  // Run again: the keyed create gives the same task back instead of a second one.
  await runExample(node, app, env)
  const checklists = await t.db.db
    .selectFrom('tasks')
    .where('title', '=', 'Draft the launch checklist')
    .select('id')
    .execute()
  assert.equal(checklists.length, 1)
})

import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, test } from 'node:test'
import packageJson from '../../package.json' with { type: 'json' }
import { COMMANDS } from '../../src/cli/run-cli.ts'
import { runCaptured } from '../harness/cli.ts'

const ROOT = join(import.meta.dirname, '../../../..')
const LAUNCHER = join(ROOT, 'packages/server/bin/workgraph.js')
const dir = mkdtempSync(join(tmpdir(), 'workgraph-cli-help-'))
after(() => rmSync(dir, { recursive: true, force: true }))

test('`<command> --help` and `-h` explain every command, with no secret and no database', async () => {
  const data = join(dir, 'never')
  for (const name of Object.keys(COMMANDS)) {
    for (const flag of ['--help', '-h']) {
      const { code, stdout } = await runCaptured([name, flag, '--data', data])
      assert.equal(code, 0, `${name} ${flag}`)
      assert.match(stdout, new RegExp(`^workgraph ${name}: .+\\n\\nUsage:\\n  workgraph ${name}`))
    }
  }
  for (const argv of [
    ['oauth-client', 'create', '--help'],
    ['user', 'set-password', '--help'],
  ]) {
    const { code, stdout } = await runCaptured(argv)
    assert.equal(code, 0, argv.join(' '))
    assert.match(stdout, /Options:\n {2}--/)
  }
  assert.equal(existsSync(data), false, 'help opened no database')
})

test('--version prints the version, alone or after a command', async () => {
  for (const argv of [['--version'], ['-v'], ['serve', '--version']]) {
    const { code, stdout } = await runCaptured(argv)
    assert.equal(code, 0)
    assert.equal(stdout, `workgraph ${packageJson.version}\n`)
  }
})

test("the README's CLI block lists every command, as the overview does", async () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8')
  const block = /## The CLI[\s\S]*?```\n([\s\S]*?)```/.exec(readme)?.[1] ?? ''
  const overview = (await runCaptured(['--help'])).stdout
  for (const name of Object.keys(COMMANDS)) {
    assert.match(block, new RegExp(`^workgraph ${name}\\b`, 'm'), `README lists ${name}`)
    assert.match(overview, new RegExp(`^ {2}workgraph ${name}\\b`, 'm'), `overview lists ${name}`)
  }
})

test('an unwritable --out is one line and exit status 1', async () => {
  for (const out of [join(dir, 'missing', 'x.json'), dir]) {
    const { code, stderr } = await runCaptured(['demo', '--out', out])
    assert.equal(code, 1)
    assert.match(stderr, new RegExp(`^Cannot write ${out}: .+\\n$`))
  }
})

test('with --json, errors are JSON on standard error, with the usual exit status', async () => {
  const usage = await runCaptured(['import', '--json'])
  assert.equal(usage.code, 2)
  assert.deepEqual(JSON.parse(usage.stderr), {
    error: { code: 'usage_error', message: 'Give exactly one bundle file.' },
  })
  const unknown = await runCaptured(['import', 'x.json', '--json', '--bogus'])
  assert.equal(unknown.code, 2)
  assert.equal(JSON.parse(unknown.stderr).error.code, 'usage_error')
  const client = await runCaptured(['oauth-client', 'create', '--json'])
  assert.equal(client.code, 2)
  assert.equal(JSON.parse(client.stderr).error.code, 'usage_error')
  const missing = await runCaptured(['import', join(dir, 'none.json'), '--json'], {
    WORKGRAPH_SECRET: Buffer.alloc(32, 1).toString('base64'),
  })
  assert.equal(missing.code, 1)
  assert.match(JSON.parse(missing.stdout).problems[0].message, /cannot read/)
})

test('the launcher on a Node.js without type stripping says what to do, in one line', (t) => {
  const old = '/usr/bin/node'
  const version = existsSync(old) ? spawnSync(old, ['--version'], { encoding: 'utf8' }).stdout : ''
  const [major = 99, minor = 0] = version.slice(1).split('.').map(Number)
  if (major > 22 || (major === 22 && minor >= 18)) {
    t.skip(`no Node.js older than 22.18 at ${old} (found ${version.trim() || 'none'})`)
    return
  }
  const result = spawnSync(old, [LAUNCHER, '--help'], { encoding: 'utf8' })
  assert.equal(result.status, 1)
  assert.equal(result.stdout, '')
  assert.match(
    result.stderr,
    /^workgraph needs Node\.js 22\.18 or newer; this is \S+\. .*npx workgraph.*\n$/,
  )
})

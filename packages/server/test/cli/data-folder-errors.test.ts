import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, test } from 'node:test'
import { runCaptured } from '../harness/cli.ts'
import { TEST_SECRET } from '../harness/test-app.ts'
import { ENGINE } from '../harness/test-database.ts'

// A data folder Workgraph cannot write (here on a file system mounted read-only) is named at
// start, with the reason and what to do, instead of failing deep inside the database engine.

const mount = mkdtempSync(join(tmpdir(), 'workgraph-ro-'))
const mounted = (() => {
  if (ENGINE !== 'pglite') return false
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=128m', 'tmpfs', mount], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
})()
const skip =
  ENGINE !== 'pglite'
    ? 'the embedded database: its suite runs it'
    : !mounted && 'mounting a tmpfs needs root (as CI has)'
after(() => {
  if (mounted) execFileSync('umount', [mount])
  rmSync(mount, { recursive: true, force: true })
})

const env = { WORKGRAPH_SECRET: TEST_SECRET.toString('base64') }

test('a read-only data folder is named, with the reason, for serve and migrate', {
  skip,
}, async () => {
  const data = join(mount, 'data')
  const made = await runCaptured(['migrate', '--data', data], env)
  assert.equal(made.code, 0, made.stderr)
  execFileSync('mount', ['-o', 'remount,ro', mount])
  try {
    for (const command of [['migrate'], ['serve', '--port', '0']]) {
      const run = await runCaptured([...command, '--data', data], env)
      assert.equal(run.code, 1, `${command[0]}: ${run.stderr}`)
      assert.match(run.stderr, /read-only file system/)
      assert.ok(run.stderr.includes(data), run.stderr)
      assert.doesNotMatch(run.stderr, /PGlite|at .*\.js:\d+/)
    }
    // A folder that cannot even be made says so too.
    const fresh = await runCaptured(['migrate', '--data', join(mount, 'new')], {})
    assert.equal(fresh.code, 1, fresh.stderr)
    assert.match(fresh.stderr, /Cannot create the data folder/)
  } finally {
    execFileSync('mount', ['-o', 'remount,rw', mount])
  }
})

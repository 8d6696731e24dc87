import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, test } from 'node:test'
import { gzipSync } from 'node:zlib'
import { type CliData, cliData, startCli } from '../harness/cli.ts'
import { TEST_SECRET } from '../harness/test-app.ts'
import { ENGINE } from '../harness/test-database.ts'

/*
 * What `backup` and `restore` do with bad input, each a real process: a usage error is exit status
 * 2 with the command's help; a file, folder or database that will not do is exit status 1 with one
 * message that says why; and either way nothing is written, neither the output nor the target.
 */

const env = { WORKGRAPH_SECRET: TEST_SECRET.toString('base64'), EMBEDDED_FSYNC: 'false' }
let cli: CliData
let files: string

before(async () => {
  cli = await cliData('workgraph-backup-refusals-')
  files = join(cli.dir, 'files')
  mkdirSync(files)
  // A database to back up (the PostgreSQL suite's has its schema already).
  if (ENGINE === 'pglite') assert.equal((await run(['migrate', ...cli.target])).code, 0)
})
after(() => cli.close())

test('a missing --out, a missing or extra FILE and an unknown flag are usage errors (2) with the help', async () => {
  for (const [args, message] of [
    [['backup', ...cli.target], /^Give --out FILE: the file to write the backup to\.$/m],
    [
      ['backup', '--out', join(files, 'x'), '--compress', ...cli.target],
      /Unknown option '--compress'/,
    ],
    [['restore', ...cli.target], /^Give exactly one backup file\.$/m],
    [['restore', 'a', 'b', ...cli.target], /^Give exactly one backup file\.$/m],
  ] as const) {
    const { code, output } = await run([...args])
    assert.equal(code, 2, output)
    assert.match(output, message)
    assert.match(output, new RegExp(`Usage:\\n  workgraph ${args[0]}`))
  }
  const json = await run(['backup', '--json', ...cli.target])
  assert.equal(json.code, 2)
  assert.equal(JSON.parse(json.output).error.code, 'usage_error')
  assert.deepEqual(readdirSync(files), [])
})

test('a FILE that cannot be read, or is not a backup, is refused (1) and nothing is restored', async () => {
  const garbage = join(files, 'garbage')
  writeFileSync(garbage, 'not a backup at all\n')
  const cut = join(files, 'cut.backup')
  writeFileSync(cut, gzipSync(randomBytes(100_000)).subarray(0, 500))
  const notTar = join(files, 'not-tar.backup')
  writeFileSync(notTar, gzipSync(Buffer.alloc(4_096, 1)))
  const empty = join(files, 'empty-tar.backup')
  writeFileSync(empty, gzipSync(Buffer.alloc(1_024)))
  const dump = join(files, 'dump.backup')
  writeFileSync(dump, Buffer.concat([Buffer.from('PGDMP'), Buffer.alloc(64, 0xee)]))
  const folder = ENGINE === 'pglite' ? join(cli.dir, 'never') : undefined
  const target = folder ? ['--data', folder] : cli.target
  const cases: [string, RegExp][] = [
    [
      join(files, 'missing'),
      /^Cannot read .+missing: there is no such file\. Nothing was restored\.$/m,
    ],
    [files, /^Cannot read .+files: it is a folder\. Nothing was restored\.$/m],
    [
      garbage,
      /is not a Workgraph backup: it is neither an embedded database's backup \(gzip\) nor a PostgreSQL custom-format dump \(PGDMP\)\. Nothing was restored\./,
    ],
  ]
  if (ENGINE === 'pglite')
    cases.push(
      [
        cut,
        /cut\.backup is not a backup Workgraph can restore: it is not whole gzip \(.+\): a truncated or damaged copy\./,
      ],
      [
        notTar,
        /not-tar\.backup is not a backup Workgraph can restore: it is not a tar archive of database files\./,
      ],
      [
        empty,
        /empty-tar\.backup is not a backup Workgraph can restore: it holds no database files/,
      ],
      [
        dump,
        /dump\.backup is a PostgreSQL dump, so nothing was restored: restore it into an empty PostgreSQL database with --database-url URL\./,
      ],
    )
  else
    cases.push(
      [
        cut,
        /cut\.backup is a backup of an embedded database, so nothing was restored: restore it into a data folder \(--data DIR\), then copy that to PostgreSQL with `workgraph move --to URL`\./,
      ],
      [dump, /dump\.backup is not a dump pg_restore can read: pg_restore: error: /],
    )
  for (const [file, message] of cases) {
    const { code, output } = await run(['restore', file, ...target])
    assert.equal(code, 1, output)
    assert.match(output, message)
    assert.doesNotMatch(output, /Usage:|\bat .+\.ts:\d+/)
  }
  if (folder) assert.equal(existsSync(folder), false, 'no data folder was made')
  const json = await run(['restore', garbage, '--json', ...target])
  assert.equal(json.code, 1)
  assert.equal(JSON.parse(json.output).error.code, 'failed')
})

test('an --out whose folder does not exist, or that is a folder, is refused (1) before any work', async () => {
  for (const [out, why] of [
    [join(files, 'no-such-folder', 'x.backup'), 'its folder does not exist'],
    [files, 'it is a folder'],
  ]) {
    const { code, output } = await run(['backup', '--out', out as string, ...cli.target])
    assert.equal(code, 1, output)
    assert.match(output, new RegExp(`^Cannot write ${out}: ${why}\\.$`, 'm'))
  }
  assert.equal(
    readdirSync(files).some((name) => name.endsWith('.partial')),
    false,
  )
})

test('a data folder without a database has nothing to back up, and is not made', {
  skip: ENGINE !== 'pglite' && 'the embedded database: its suite runs it',
}, async () => {
  const folder = join(cli.dir, 'nothing-here')
  const { code, output } = await run(['backup', '--out', join(files, 'n.backup'), '--data', folder])
  assert.equal(code, 1, output)
  assert.match(
    output,
    /^There is no embedded database in .+nothing-here, so there is nothing to back up\.$/m,
  )
  assert.equal(existsSync(folder), false)
  assert.equal(existsSync(join(files, 'n.backup')), false)
})

test('without pg_dump on the PATH, backup says which command to run; a database it cannot reach is named', {
  skip: ENGINE !== 'postgres' && 'PostgreSQL: its suite runs it',
}, async () => {
  const out = join(files, 'pg.backup')
  const url = new URL(cli.target[1] as string)
  url.password = 'a-password'
  const bare = await run(['backup', '--out', out, '--database-url', url.toString()], {
    PATH: join(cli.dir, 'no-programs-here'),
  })
  assert.equal(bare.code, 1, bare.output)
  assert.match(bare.output, /^pg_dump is not on the PATH, so nothing was written\./m)
  url.password = ''
  assert.ok(
    bare.output.includes(`pg_dump --dbname=${url} --format=custom --file=${out}`),
    bare.output,
  )
  assert.doesNotMatch(bare.output, /a-password/)
  assert.equal(existsSync(out), false)

  const nowhere = 'postgres://postgres@127.0.0.1:1/nowhere'
  const unreachable = await run(['backup', '--out', out, '--database-url', nowhere])
  assert.equal(unreachable.code, 1, unreachable.output)
  assert.match(
    unreachable.output,
    /^pg_dump failed, so nothing was written:\npg_dump: error: connection to server at "127\.0\.0\.1", port 1 failed/m,
  )
  assert.equal(existsSync(out), false)
})

test('a backup stopped halfway (SIGTERM) leaves neither its file nor a temporary one', {
  skip: ENGINE !== 'pglite' && 'the embedded database: its suite runs it',
}, async () => {
  const out = join(files, 'stopped.backup')
  const backup = startCli(['backup', '--out', out, ...cli.target], env)
  const deadline = Date.now() + 60_000
  while (!readdirSync(files).some((name) => name.endsWith('.partial'))) {
    assert.ok(Date.now() < deadline, backup.output())
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  backup.child.kill('SIGTERM')
  assert.equal(await backup.exit(), 'SIGTERM')
  assert.deepEqual(
    readdirSync(files).filter((name) => name.includes('stopped')),
    [],
  )
})

// Runs a command to its end as a real process: its exit status and all it printed.
async function run(
  args: string[],
  extra: Record<string, string> = {},
): Promise<{ code: number | string; output: string }> {
  const command = startCli(args, { ...env, ...extra })
  const code = await command.exit(120_000)
  return { code, output: command.output() }
}

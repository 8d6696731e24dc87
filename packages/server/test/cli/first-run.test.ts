import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { type CliData, cliData, freePort, runCaptured, startCli } from '../harness/cli.ts'
import { TEST_SECRET } from '../harness/test-app.ts'
import { ENGINE } from '../harness/test-database.ts'

// `serve` on a database with no workspace says how to start one: `workgraph init`, and a one-time
// link to the first-run page, which works until a workspace exists.

let cli: CliData
const env = { WORKGRAPH_SECRET: TEST_SECRET.toString('base64') }

before(async () => {
  cli = await cliData('workgraph-first-run-')
})
after(() => cli.close())

const SETUP_LINK = /^ {4}(http:\/\/127\.0\.0\.1:\d+\/setup\?token=[\w-]{43})$/m

test('serve on an empty database prints the init hint and a setup link that opens the page', async () => {
  const port = await freePort()
  const server = startCli(['serve', '--port', String(port), ...cli.target], env)
  let link: string | undefined
  try {
    ;[, link] = await server.waitFor(SETUP_LINK)
    assert.match(server.output(), /There is no workspace yet \(/)
    assert.match(server.output(), /workgraph init --workspace-name "Your team" --name/)
    const html = { accept: 'text/html' }
    const page = await fetch(link as string, { headers: html })
    assert.equal(page.status, 200)
    assert.match(await page.text(), /<h1>Start your workspace<\/h1>/)
    const wrong = await fetch(`http://127.0.0.1:${port}/setup?token=${'x'.repeat(43)}`, {
      headers: html,
    })
    assert.equal(wrong.status, 404)

    const owner = ['--workspace-name', 'Acme', '--name', 'Ada', '--email', 'ada@acme.test']
    const made = await runCaptured(['init', ...owner, ...cli.target], env, 'a long passphrase\n')
    if (ENGINE === 'pglite') {
      // The server holds the embedded folder: init says what to do, as set-password does.
      assert.equal(made.code, 1)
      assert.match(made.stderr, /in use by another Workgraph process \(pid \d+\)/)
      assert.match(made.stderr, /stop it \(Ctrl-C where it runs\), run this again, then start it/)
      assert.match(made.stderr, /with PostgreSQL \(--database-url\) init works while servers run/)
      assert.equal((await fetch(link as string, { headers: html })).status, 200)
    } else {
      // On PostgreSQL init runs beside the server, and the page is gone once it has.
      assert.equal(made.code, 0, made.stderr)
      assert.equal((await fetch(link as string, { headers: html })).status, 404)
    }
  } finally {
    server.child.kill('SIGTERM')
    assert.equal(await server.exit(), 0)
  }
  if (ENGINE === 'pglite') {
    const made = await runCaptured(
      [
        'init',
        '--workspace-name',
        'Acme',
        '--name',
        'Ada',
        '--email',
        'ada@acme.test',
        ...cli.target,
      ],
      env,
      'a long passphrase\n',
    )
    assert.equal(made.code, 0, made.stderr)
  }

  // With a workspace, serve prints no link, and the one printed before opens nothing.
  const again = startCli(['serve', '--port', String(port), ...cli.target], env)
  try {
    await again.waitFor(/Workgraph is listening on/)
    await new Promise((resolve) => setTimeout(resolve, 200))
    assert.doesNotMatch(again.output(), /no workspace yet|setup\?token=/)
    const stale = await fetch(link as string, { headers: { accept: 'text/html' } })
    assert.equal(stale.status, 404)
  } finally {
    again.child.kill('SIGTERM')
    assert.equal(await again.exit(), 0)
  }
})

import assert from 'node:assert/strict'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, test } from 'node:test'
import { fileURLToPath } from 'node:url'
import { Browser } from '../harness/browser.ts'
import { type CliProcess, freePort, startProcess, terminalPath } from '../harness/cli.ts'
import { runBrowserFlow } from '../harness/oauth-flow.ts'

// docs/quickstart.md, followed as a person would: each of its shell blocks runs as written, in a
// shell whose PATH has no node_modules (the machine's own Node, 20 on a fresh one), from the
// repository's root. What a person fills in is filled in the same way: the key, client id and
// demo password from what `npm start` printed, the signing secret from what `workgraph listen`
// printed. Two things differ, so the test never collides with something already on the machine:
// the server's port (8080 in the page) and the receiver's (3000) are free ones, given through the
// PORT each program reads, and the data folder is a temporary one (WORKGRAPH_DATA). `npm ci` has
// already run: it is what runs the suite.

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url))
const PAGE = readFileSync(join(ROOT, 'docs/quickstart.md'), 'utf8')
const BLOCKS = [...PAGE.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((match) => match[1] ?? '')
const data = mkdtempSync(join(tmpdir(), 'wg-quickstart-'))
const running: CliProcess[] = []

after(async () => {
  for (const process_ of running) stopGroup(process_)
  rmSync(data, { recursive: true, force: true })
})

// The block of the page that contains `text`; the test fails if the page no longer has it.
function block(text: string): string {
  const found = BLOCKS.find((candidate) => candidate.includes(text))
  assert.ok(found, `docs/quickstart.md has a block with ${text}`)
  return found
}

// A person's terminal, its data folder a temporary one.
const TERMINAL = {
  PATH: terminalPath(),
  HOME: process.env.HOME ?? '',
  WORKGRAPH_DATA: data,
}

// Runs a shell script from the root in its own process group, so that stopping it stops what it
// started (npm, then node).
function shell(script: string, env: Record<string, string> = {}): CliProcess {
  const started = startProcess('sh', ['-c', script], {
    cwd: ROOT,
    env: { ...TERMINAL, ...env },
    detached: true,
  })
  running.push(started)
  return started
}

function stopGroup(started: CliProcess, signal: NodeJS.Signals = 'SIGTERM'): void {
  try {
    if (started.child.pid && started.child.exitCode === null)
      process.kill(-started.child.pid, signal)
  } catch {
    // Already gone.
  }
}

// Runs a block to its end; its output on success.
async function finished(started: CliProcess): Promise<string> {
  const code = await started.exit(120_000)
  assert.equal(code, 0, started.output())
  return started.output()
}

test('the quickstart, followed as written, gets a call, a write, a webhook, an OAuth app and an agent through', async () => {
  // 1. Start the server.
  const start = block('npm start')
  assert.equal(start.split('\n')[0], 'npm ci && npm start')
  const serverPort = await freePort()
  const server = shell('npm start', { PORT: String(serverPort) })
  const key = (await server.waitFor(/API key of .*: (wg_key_\S+)/, 180_000))[1] as string
  const clientId = (await server.waitFor(/client_id (cli_[0-9a-z]+),/))[1] as string
  const [, email, password] = (await server.waitFor(/OAuth apps: (\S+) \/ (\S+)/)) as string[]
  await server.waitFor(/curl -s/)
  const origin = `http://127.0.0.1:${serverPort}`
  const exports = block('export WORKGRAPH_URL')
    .replace('http://127.0.0.1:8080', origin)
    .replace('wg_key_…', key)
  const inTerminal = (script: string) => `${exports}\n${script}`

  // 2. The first call.
  const projects = JSON.parse(await finished(shell(inTerminal(block('/v1/projects?limit=2')))))
  assert.equal(projects.data.length, 2)
  assert.ok(projects.next_cursor)

  // 3. The first write, twice: the key gives the first answer back.
  const write = inTerminal(block('quickstart-first-task'))
  const first = JSON.parse(await finished(shell(write)))
  const again = JSON.parse(await finished(shell(write)))
  assert.match(first.id, /^tsk_/)
  assert.equal(first.title, 'Try Workgraph')
  assert.equal(first.project_id, projects.data[0].id)
  assert.deepEqual(again, first)

  // 4. The first webhook: listen, the receiver, then an event.
  const receiverPort = await freePort()
  const listen = shell(
    inTerminal(block('workgraph listen').replace('127.0.0.1:3000', `127.0.0.1:${receiverPort}`)),
  )
  const secret = (await listen.waitFor(/Signing secret[^:]*: (whsec_\S+)/, 120_000))[1] as string
  const endpoint = (await listen.waitFor(/Temporary endpoint (whk_[0-9a-z]+)/))[1] as string
  const receiver = shell(inTerminal(block('example:webhook-receiver').replace('whsec_…', secret)), {
    PORT: String(receiverPort),
  })
  await waitUntilListening(receiverPort)
  await finished(shell(inTerminal(block('"Webhooks work"'))))
  await listen.waitFor(/task\.created\s+\S+\s+→ 200/, 60_000)
  await receiver.waitFor(/New task: Webhooks work/)
  // Ctrl-C: listen removes its endpoint as it ends.
  stopGroup(listen, 'SIGINT')
  await eventually(async () => {
    const reply = await fetch(`${origin}/v1/webhooks/${endpoint}`, {
      headers: { authorization: `Bearer ${key}` },
    })
    return reply.status === 404
  }, `listen removes ${endpoint}`)
  stopGroup(receiver)

  // 5. The first OAuth app: the person's browser is scripted over HTTP.
  const app = shell(inTerminal(block('example:oauth-pkce-app').replace('cli_…', clientId)))
  const authorize = (await app.waitFor(/^(http\S+\/oauth\/authorize\S+)$/m, 120_000))[1] as string
  const flow = await runBrowserFlow(new Browser(origin), authorize, {
    email: email as string,
    password: password as string,
  })
  assert.ok(flow.callback, flow.page.body)
  await fetch(flow.callback)
  const granted = await finished(app)
  const result = JSON.parse(granted.slice(granted.indexOf('{\n')))
  assert.ok(result.projects.length > 0, granted)
  assert.deepEqual(result.afterRefresh, result.projects)

  // 6. The first agent.
  const agent = await finished(shell(inTerminal(block('example:agent'))))
  const report = JSON.parse(agent.slice(agent.indexOf('{\n')))
  assert.equal(report.question, 'what is blocked?')
  assert.ok(report.found.length > 0, agent)
  assert.match(report.followUp.id, /^tsk_/)
  stopGroup(server)
})

// The receiver prints nothing when it starts: wait until its port takes connections.
function waitUntilListening(port: number): Promise<void> {
  return eventually(
    () =>
      fetch(`http://127.0.0.1:${port}/`).then(
        () => true,
        () => false,
      ),
    `something listens on ${port}`,
  )
}

// Asks until the answer is yes, for up to a minute.
async function eventually(yes: () => Promise<boolean>, what: string): Promise<void> {
  for (let attempt = 0; attempt < 600; attempt++) {
    if (await yes()) return
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  assert.fail(`never: ${what}`)
}

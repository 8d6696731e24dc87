import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, test } from 'node:test'
import pg from 'pg'
import { parse } from 'yaml'
import { SETTINGS } from '../../src/config.ts'
import {
  freePort,
  localPostgres,
  Podman,
  podmanUnavailable,
  prepareImages,
  ROOT,
  run,
  succeeded,
  tail,
} from '../harness/podman.ts'
import { ENGINE } from '../harness/test-database.ts'

// The Dockerfile and compose.yaml, built and run with podman as an operator would run them
// (docs/operations.md, "Running the image"). The image is built from the repository's Dockerfile
// on a base made here (test/harness/podman.ts: no image registry is reachable), its build stage
// running `npm ci` against the npm registry. On PostgreSQL (the run's server; host networking):
// `migrate`, `init`, the API with webhooks dispatch off and a `worker` beside it, then compose's
// three services. On the embedded engine, the database in a volume the non-root user owns.
// Skipped only where podman or debootstrap is not installed, and never in CI
// (WORKGRAPH_TEST_REQUIRE_PODMAN, .ci/run).

const unavailable = podmanUnavailable()
if (unavailable && process.env.WORKGRAPH_TEST_REQUIRE_PODMAN)
  throw new Error(`WORKGRAPH_TEST_REQUIRE_PODMAN is set, but ${unavailable}`)
const skip = unavailable ? `podman cannot run here: ${unavailable}` : false

const podman = unavailable ? undefined : new Podman()
let images: { image: string; postgres: string } | undefined
const tag = randomBytes(4).toString('hex')
const cleanups: (() => Promise<unknown>)[] = []

after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {})
  podman?.close()
})

const SECRET = randomBytes(32).toString('base64')
// `workgraph init` as an operator runs it: the owner's key is printed, a password link instead
// of a password asked for.
const INIT = ['init', '--workspace-name', 'Acme', '--name', 'Ada', '--email', 'ada@acme.test']
INIT.push('--no-password')

// How many of a resource's events wait for the webhook dispatcher, asked from inside a container
// of the image (its pg, its DATABASE_URL).
const PENDING_SCRIPT = `
const pg = require('pg')
const client = new pg.Client({ connectionString: process.env.DATABASE_URL })
client.connect()
  .then(() => client.query(
    'select count(*)::int as n from events where subject_id = $1 and dispatched_at is null',
    [process.argv[1]],
  ))
  .then((result) => { console.log(result.rows[0].n); return client.end() })`

/** Waits until none of the events `pending` counts waits: the worker took them. */
async function dispatched(pending: () => Promise<number>, worker: string): Promise<void> {
  const deadline = Date.now() + 60_000
  let waiting = await pending()
  while (waiting > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 500))
    waiting = await pending()
  }
  assert.equal(waiting, 0, `the worker took the event:\n${await (podman as Podman).logs(worker)}`)
}

/** Runs a container to its end: `podman run --rm …`, its output; an error when it fails. */
async function runOnce(args: string[], command: string[], what: string): Promise<string> {
  return (podman as Podman).ok(['run', '--rm', ...args, built().image, ...command], what)
}

/** Starts a container in the background; it is removed when the file ends. */
async function start(name: string, args: string[], command: string[] = []): Promise<void> {
  const p = podman as Podman
  cleanups.push(() => p.run(['rm', '--force', '--time=0', name]))
  await p.ok(['run', '--detach', `--name=${name}`, ...args, built().image, ...command])
}

/**
 * Waits until /readyz answers 200, failing at once (with its output) if the container stops,
 * unless a restart policy may start it again.
 */
async function ready(port: number, container: string, restarts = false): Promise<void> {
  const timeoutMs = 120_000
  const deadline = Date.now() + timeoutMs
  for (let round = 0; Date.now() < deadline; round++) {
    const status = await fetch(`http://127.0.0.1:${port}/readyz`, {
      signal: AbortSignal.timeout(2000),
    }).then(
      (response) => response.status,
      () => 0,
    )
    if (status === 200) return
    if (!restarts && round % 8 === 7) {
      const state = await (podman as Podman).ok([
        'inspect',
        '--format={{.State.Status}}',
        container,
      ])
      if (state.trim() === 'exited')
        assert.fail(`${container} exited:\n${await (podman as Podman).logs(container)}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  assert.fail(`${container} was not ready:\n${await (podman as Podman).logs(container)}`)
}

/** The key `workgraph init` printed. */
function keyOf(printed: string): string {
  const [, key] = /API key of .*: (wg_key_\w+)/.exec(printed) ?? []
  assert.ok(key, printed)
  return key
}

/** A task written through the API, and the same task read back. */
async function writeAndRead(port: number, key: string, title: string): Promise<string> {
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' }
  const created = await fetch(`http://127.0.0.1:${port}/v1/tasks`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ title }),
  })
  assert.equal(created.status, 201, await created.clone().text())
  const { id } = (await created.json()) as { id: string }
  await readBack(port, key, id, title)
  return id
}

async function readBack(port: number, key: string, id: string, title: string): Promise<void> {
  const read = await fetch(`http://127.0.0.1:${port}/v1/resources/${id}`, {
    headers: { authorization: `Bearer ${key}` },
  })
  assert.equal(read.status, 200, await read.clone().text())
  assert.equal(((await read.json()) as { title: string }).title, title)
}

/** Stops a server as an orchestrator does (SIGTERM) and expects it to drain and exit 0. */
async function stopsCleanly(container: string): Promise<void> {
  const p = podman as Podman
  await p.ok(['stop', '--time=30', container])
  const code = await p.ok(['inspect', '--format={{.State.ExitCode}}', container])
  assert.equal(code.trim(), '0', await p.logs(container))
}

/** What the running server's container is: its user, and what its files are. */
async function inspectInside(container: string): Promise<void> {
  const p = podman as Podman
  assert.equal((await p.ok(['exec', container, 'id', '-un'])).trim(), 'node')
  // Production dependencies only, and code the server cannot change.
  await p.ok(
    [
      'exec',
      container,
      'sh',
      '-c',
      'test -d node_modules/fastify && test ! -e node_modules/node' +
        ' && test ! -e node_modules/typescript && test ! -e packages/server/test' +
        ' && test ! -w packages/server/src && test -w "$WORKGRAPH_DATA"',
    ],
    'the image holds production dependencies only, read-only to its user',
  )
  // The image's own HEALTHCHECK, run once (podman schedules it through systemd, absent here).
  const health = await p.run(['healthcheck', 'run', container])
  assert.equal(health.code, 0, tail(health))
}

/** The images, which the first test built. */
function built(): { image: string; postgres: string } {
  assert.ok(images, 'the image was built (the first test)')
  return images
}

// Cold, the Debian root is downloaded and npm ci runs in the build; both are kept after.
const BUILD_TIMEOUT_MS = 20 * 60_000

test('the image builds from the Dockerfile on a base made here', {
  skip,
  timeout: BUILD_TIMEOUT_MS,
}, async (t) => {
  images = await prepareImages(podman as Podman, (line) => t.diagnostic(line))
})

// What the test reads of compose.yaml.
interface Compose {
  services: Record<
    string,
    {
      command?: string[]
      environment?: Record<string, string>
      depends_on?: unknown
      healthcheck?: unknown
      volumes?: string[]
    }
  >
  volumes: Record<string, unknown>
}

test('compose.yaml and the Dockerfile use documented settings, as docs/operations.md says', () => {
  const documented = new Set(SETTINGS.map((setting) => setting.env))
  const compose = parse(readFileSync(join(ROOT, 'compose.yaml'), 'utf8')) as Compose
  assert.deepEqual(Object.keys(compose.services), ['postgres', 'api', 'worker'])
  const { postgres, api, worker } = compose.services
  assert.ok(postgres && api && worker)
  assert.deepEqual(api.command, ['serve'])
  assert.deepEqual(worker.command, ['worker'])
  assert.equal(api.environment?.WEBHOOKS_DISPATCH, 'false')
  for (const service of [api, worker])
    for (const name of Object.keys(service.environment ?? {}))
      assert.ok(documented.has(name), `${name} is in docs/configuration.md`)
  assert.deepEqual(api.depends_on, { postgres: { condition: 'service_healthy' } })
  assert.deepEqual(worker.depends_on, { api: { condition: 'service_healthy' } })
  assert.ok(postgres.healthcheck, 'PostgreSQL has a health check')
  assert.deepEqual(worker.healthcheck, { disable: true })
  assert.ok('postgres-data' in compose.volumes)
  assert.ok((postgres.volumes ?? []).includes('postgres-data:/var/lib/postgresql/data'))

  const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8')
  assert.match(dockerfile, /^ARG NODE_IMAGE=node:24-bookworm-slim$/m)
  assert.match(dockerfile, /^USER node$/m)
  assert.match(dockerfile, /^HEALTHCHECK [^\n]*\\\n[^\n]*\/readyz/m)
  const env = /^ENV ((?:.*\\\n)*.*)$/m.exec(dockerfile)?.[1] ?? ''
  const names = [...env.matchAll(/(\w+)=/g)].map((match) => match[1])
  assert.ok(names.length > 0)
  for (const name of names) assert.ok(documented.has(name ?? ''), `${name} is documented`)

  const operations = readFileSync(join(ROOT, 'docs/operations.md'), 'utf8')
  const section = /^## Running the image\n([\s\S]*?)(?=^## |(?![\s\S]))/m.exec(operations)?.[1]
  assert.ok(section, 'docs/operations.md has "Running the image"')
  for (const said of [
    'docker build',
    'compose.yaml',
    'WEBHOOKS_DISPATCH',
    'workgraph migrate',
    '/readyz',
    '`node`',
    '/data',
    'NODE_IMAGE',
    ...Object.keys(compose.services).map((name) => `\`${name}\``),
    ...names.map((name) => `\`${name}\``),
  ])
    assert.ok(section.includes(said), `"Running the image" says ${said}`)
})

if (ENGINE === 'postgres') {
  test('on PostgreSQL, the image migrates, serves the API and runs the worker beside it', {
    skip,
    timeout: 5 * 60_000,
  }, async () => {
    const adminUrl =
      process.env.WORKGRAPH_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'
    // Named after the run's databases, which the runner drops whatever happens to this file.
    const prefix = (process.env.WORKGRAPH_TEST_POSTGRES_TEMPLATE ?? 'wgt').replace(/_template$/, '')
    const database = `${prefix}_image_${tag}`
    const admin = new pg.Client({ connectionString: adminUrl })
    await admin.connect()
    await admin.query(`create database "${database}"`)
    cleanups.push(async () => {
      await admin.query(`drop database if exists "${database}" with (force)`)
      await admin.end()
    })
    const url = new URL(adminUrl)
    url.pathname = `/${database}`
    const port = await freePort()
    const settings = [
      '--network=host',
      `--env=DATABASE_URL=${url}`,
      `--env=WORKGRAPH_SECRET=${SECRET}`,
      `--env=PUBLIC_URL=http://127.0.0.1:${port}`,
    ]

    const migrated = await runOnce(settings, ['migrate'], 'workgraph migrate')
    assert.match(migrated, /Migrations are up to date/)
    const initiated = await runOnce(settings, INIT, 'workgraph init')
    const key = keyOf(initiated)

    const api = `wgt-image-${tag}-api`
    const worker = `wgt-image-${tag}-worker`
    await start(api, [...settings, `--env=PORT=${port}`, '--env=WEBHOOKS_DISPATCH=false'])
    await start(worker, settings, ['worker'])
    await ready(port, api)
    await inspectInside(api)
    const id = await writeAndRead(port, key, 'Written through the image')

    // The API dispatches nothing: the worker takes the task's event.
    const reader = new pg.Client({ connectionString: url.toString() })
    await reader.connect()
    try {
      await dispatched(async () => {
        const { rows } = await reader.query<{ n: number }>(
          'select count(*)::int as n from events where subject_id = $1 and dispatched_at is null',
          [id],
        )
        return rows[0]?.n ?? 1
      }, worker)
    } finally {
      await reader.end()
    }
    await stopsCleanly(api)
    await stopsCleanly(worker)
  })

  const required = process.env.WORKGRAPH_TEST_REQUIRE_PODMAN
  const composeMissing =
    spawnSync('podman-compose', ['--help'], { stdio: 'ignore' }).error !== undefined
  test('compose.yaml runs PostgreSQL, the API and the worker', {
    skip:
      skip ||
      (!required && composeMissing
        ? 'podman-compose is not installed (apt-get install podman-compose)'
        : false) ||
      (!required && !localPostgres()
        ? "compose's PostgreSQL is made of this machine's, and there is none under /usr/lib/postgresql"
        : false),
    timeout: 5 * 60_000,
  }, async () => {
    const p = podman as Podman
    const dir = mkdtempSync(join(tmpdir(), 'wg-compose-'))
    const project = `wgtcompose${tag}`
    const port = await freePort()
    // compose.yaml as it is, but for two lines: the PostgreSQL image (no registry here), and
    // the API's published port (a free one, not 8080).
    let file = readFileSync(join(ROOT, 'compose.yaml'), 'utf8')
    for (const [from, to] of [
      ['image: postgres:17\n', `image: ${built().postgres}\n`],
      ["- '8080:8080'\n", `- '${port}:8080'\n`],
    ] as const) {
      assert.equal(file.split(from).length, 2, `compose.yaml has ${from.trim()} once`)
      file = file.replace(from, to)
    }
    writeFileSync(join(dir, 'compose.yaml'), file)
    const env = {
      ...p.env,
      WORKGRAPH_IMAGE: built().image,
      WORKGRAPH_SECRET: SECRET,
      POSTGRES_PASSWORD: randomBytes(12).toString('hex'),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
    }
    const composeRun = (args: string[]) =>
      run('podman-compose', ['--project-name', project, ...args], { env, cwd: dir })
    cleanups.push(async () => {
      await composeRun(['down', '--volumes', '--timeout=0'])
      await p.run(['network', 'rm', '--force', `${project}_default`])
      rmSync(dir, { recursive: true, force: true })
    })

    succeeded(await composeRun(['up', '--detach', '--no-build']), 'podman-compose up')
    // podman-compose 1.0 starts the services in order without waiting for a condition: the API
    // may exit until PostgreSQL accepts connections, and its restart policy starts it again.
    const api = `${project}_api_1`
    await ready(port, api, true)
    for (const service of ['postgres', 'api']) {
      const health = await p.run(['healthcheck', 'run', `${project}_${service}_1`])
      assert.equal(health.code, 0, `${service}'s health check:\n${tail(health)}`)
    }
    // As docs/operations.md says (`run --rm api init`), without a terminal and with the
    // services already up.
    const initiated = await composeRun(['run', '-T', '--rm', '--no-deps', 'api', ...INIT])
    const id = await writeAndRead(port, keyOf(initiated.stdout + initiated.stderr), 'Via compose')
    await dispatched(
      async () => Number(await p.ok(['exec', api, 'node', '-e', PENDING_SCRIPT, id])),
      `${project}_worker_1`,
    )
  })
}

if (ENGINE === 'pglite') {
  test('on its embedded database, the image keeps the data in a volume its non-root user owns', {
    skip,
    timeout: 5 * 60_000,
  }, async () => {
    const p = podman as Podman
    const volume = `wgt-image-${tag}-data`
    await p.ok(['volume', 'create', volume])
    cleanups.push(() => p.run(['volume', 'rm', '--force', volume]))
    const port = await freePort()
    const settings = [
      '--network=host',
      `--volume=${volume}:/data`,
      `--env=PUBLIC_URL=http://127.0.0.1:${port}`,
      `--env=PORT=${port}`,
    ]
    const initiated = await runOnce(settings, INIT, 'workgraph init')
    const key = keyOf(initiated)
    const first = `wgt-image-${tag}-first`
    await start(first, settings)
    await ready(port, first)
    await inspectInside(first)
    const title = 'Kept in the volume'
    const id = await writeAndRead(port, key, title)
    await stopsCleanly(first)

    // Another container on the same volume: the same database, key and task.
    const second = `wgt-image-${tag}-second`
    await start(second, settings)
    await ready(port, second)
    await readBack(port, key, id, title)
    await stopsCleanly(second)
  })
}

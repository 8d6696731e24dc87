import { spawn, spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { createRequire } from 'node:module'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { basename, dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

// Podman for the tests of the container image (test/ops/container-image.test.ts). No image
// registry is reachable where the suite runs, so the image's base is made here, the way the
// official Node image is made: Debian's minimal root (debootstrap), the project's own Node binary
// (the `node` devDependency), npm, and a `node` user. The stand-in for compose's PostgreSQL image
// is the same root with this machine's PostgreSQL. Everything slow is kept: the Debian root under
// the temporary folder and every image in podman's storage, each named by a hash of what made it.

/** The repository's root, the image's build context. */
export const ROOT = fileURLToPath(new URL('../../../../', import.meta.url))

/** The image the tests build from the Dockerfile (kept, so a rerun reuses its layers). */
export const IMAGE = 'localhost/workgraph-test:latest'

const PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin'

/** What a finished command printed, and how it ended. */
export interface Ran {
  code: number
  stdout: string
  stderr: string
}

/** Runs a program to its end; `input` is piped to it, or another program's output. */
export function run(
  file: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string; input?: NodeJS.ReadableStream } = {},
): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, {
      env: options.env ?? process.env,
      cwd: options.cwd,
      stdio: [options.input ? 'pipe' : 'ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout?.setEncoding('utf8').on('data', (text: string) => (stdout += text))
    child.stderr?.setEncoding('utf8').on('data', (text: string) => (stderr += text))
    if (options.input && child.stdin) options.input.pipe(child.stdin)
    child.once('error', reject)
    child.once('close', (code, signal) =>
      resolve({ code: code ?? (signal ? 128 : 1), stdout, stderr }),
    )
  })
}

/** The end of a command's output, for a failure's message. */
export function tail(ran: Ran, lines = 40): string {
  return `${ran.stdout}\n${ran.stderr}`.trimEnd().split('\n').slice(-lines).join('\n')
}

/** A command's output, or an error with its end when it failed. */
export function succeeded(ran: Ran, what: string): string {
  if (ran.code !== 0) throw new Error(`${what} failed (exit ${ran.code}):\n${tail(ran)}`)
  return ran.stdout
}

/**
 * A TCP port that was free a moment ago (test/harness/cli.ts has the same; that module loads the
 * whole CLI, which a test of the image never runs in its own process).
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0))
    })
  })
}

/** Why podman cannot run here at all, or undefined when it can. */
export function podmanUnavailable(): string | undefined {
  for (const program of ['podman', 'debootstrap']) {
    const found = spawnSync(program, ['--version'], { stdio: 'ignore' })
    if (found.error)
      return `${program} is not installed (apt-get install podman runc debootstrap podman-compose)`
  }
  return undefined
}

/** Podman with the settings these tests need, written to a folder of their own. */
export class Podman {
  readonly env: NodeJS.ProcessEnv
  private readonly dir: string

  constructor() {
    this.dir = mkdtempSync(join(tmpdir(), 'wg-podman-'))
    const conf = join(this.dir, 'containers.conf')
    writeFileSync(
      conf,
      [
        '[containers]',
        // podman raises a container's open-file limit past the hard limit of machines like
        // CI's, which the runtime is then not permitted to set: keep the limits it inherits.
        'default_ulimits = []',
        '[engine]',
        'runtime = "runc"',
        '',
      ].join('\n'),
    )
    this.env = { ...process.env, CONTAINERS_CONF: conf }
  }

  /** `podman …`, to its end. */
  run(args: string[], input?: NodeJS.ReadableStream): Promise<Ran> {
    return run('podman', args, { env: this.env, ...(input ? { input } : {}) })
  }

  /** `podman …`, its output; an error when it fails. */
  async ok(args: string[], what = `podman ${args[0]}`): Promise<string> {
    return succeeded(await this.run(args), what)
  }

  async imageExists(tag: string): Promise<boolean> {
    return (await this.run(['image', 'exists', tag])).code === 0
  }

  /** The container's output so far, for a failure's message. */
  async logs(name: string): Promise<string> {
    return tail(await this.run(['logs', name]), 60)
  }

  close(): void {
    rmSync(this.dir, { recursive: true, force: true })
  }
}

/** Says what a step of the preparation did: made or reused, and how long it took. */
export type Note = (line: string) => void

/**
 * Builds the image from the repository's Dockerfile on a base made here, and the stand-in for
 * compose's PostgreSQL; one process at a time (two engines' suites may run this file at once:
 * the second then finds every layer built).
 */
export async function prepareImages(
  podman: Podman,
  note: Note,
): Promise<{ image: string; postgres: string }> {
  return exclusively('workgraph-test-podman-images', async () => {
    const debian = await debianImage(podman, note)
    const base = await nodeImage(podman, debian, note)
    const started = performance.now()
    const previous = (await podman.run(['image', 'inspect', '--format={{.Id}}', IMAGE])).stdout
    await podman.ok(
      [
        'build',
        // Docker's format keeps HEALTHCHECK (OCI's has no such field).
        '--format=docker',
        '--network=host',
        `--build-arg=NODE_IMAGE=${base}`,
        `--tag=${IMAGE}`,
        `--file=${join(ROOT, 'Dockerfile')}`,
        ROOT,
      ],
      'building the Dockerfile',
    )
    note(`${IMAGE}: built from the Dockerfile ${since(started)}`)
    // The image this one replaced is no cache of anything now (its dependencies' stage is kept).
    const current = (await podman.ok(['image', 'inspect', '--format={{.Id}}', IMAGE])).trim()
    if (previous.trim() && previous.trim() !== current)
      await podman.run(['image', 'rm', previous.trim()])
    return { image: IMAGE, postgres: await postgresImage(podman, debian, note) }
  })
}

// How long since `started`, for a note.
function since(started: number): string {
  return `in ${((performance.now() - started) / 1000).toFixed(1)} s`
}

// Runs `work` while no other process of this machine runs work under the same name: the name is
// a socket in the abstract namespace, released when its process ends, however it ends.
async function exclusively<T>(name: string, work: () => Promise<T>): Promise<T> {
  for (;;) {
    const server = createServer()
    const taken = await new Promise<boolean>((resolve, reject) => {
      server.once('error', (error: NodeJS.ErrnoException) =>
        error.code === 'EADDRINUSE' ? resolve(false) : reject(error),
      )
      server.listen({ path: `\0${name}` }, () => resolve(true))
    })
    if (taken) {
      try {
        return await work()
      } finally {
        server.close()
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 1000))
  }
}

function hash(...parts: (string | Buffer)[]): string {
  const digest = createHash('sha256')
  for (const part of parts) digest.update(part).update('\0')
  return digest.digest('hex').slice(0, 16)
}

// The Debian release of this machine, whose libraries the copied binaries were built against.
function debianSuite(): string {
  const release = existsSync('/etc/os-release') ? readFileSync('/etc/os-release', 'utf8') : ''
  return /^VERSION_CODENAME=(\w+)$/m.exec(release)?.[1] ?? 'bookworm'
}

const MIRROR = 'http://deb.debian.org/debian'
// What a server needs no more than the image does: downloaded packages, package lists,
// documentation and translations.
const TRIMMED = [
  'var/cache/apt/archives',
  'var/lib/apt/lists',
  'usr/share/doc',
  'usr/share/man',
  'usr/share/info',
  'usr/share/locale',
]

// Debian's minimal root as an image; the root is kept under the temporary folder.
async function debianImage(podman: Podman, note: Note): Promise<string> {
  const suite = debianSuite()
  const key = hash('minbase', suite, MIRROR, ...TRIMMED)
  const tag = `localhost/workgraph-test-debian:${suite}-${key}`
  if (await podman.imageExists(tag)) {
    note(`${tag}: reused`)
    return tag
  }
  const root = join(tmpdir(), `workgraph-test-rootfs-${suite}-${key}`)
  if (existsSync(root)) note(`${root}: reused`)
  else {
    const began = performance.now()
    // Built aside and renamed when complete: an interrupted run leaves no half root to reuse.
    for (const entry of readdirSync(tmpdir()))
      if (entry.startsWith(`${basename(root)}.partial-`))
        rmSync(join(tmpdir(), entry), { recursive: true, force: true })
    const partial = `${root}.partial-${process.pid}`
    succeeded(
      await run('debootstrap', ['--variant=minbase', suite, partial, MIRROR]),
      'debootstrap',
    )
    for (const path of TRIMMED) {
      rmSync(join(partial, path), { recursive: true, force: true })
      mkdirSync(join(partial, path), { recursive: true })
    }
    renameSync(partial, root)
    note(`${root}: made by debootstrap ${since(began)}`)
  }
  const started = performance.now()
  const tar = spawn('tar', ['--numeric-owner', '-C', root, '-c', '.'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const tarEnded = new Promise<number | null>((resolve) => tar.once('close', resolve))
  const imported = await podman.run(
    ['import', `--change=ENV PATH=${PATH}`, '--change=CMD ["bash"]', '-', tag],
    tar.stdout,
  )
  const tarCode = await tarEnded
  if (tarCode !== 0) {
    await podman.run(['image', 'rm', '--force', tag])
    throw new Error(`tar of ${root} failed (exit ${tarCode})`)
  }
  succeeded(imported, 'podman import')
  note(`${tag}: imported ${since(started)}`)
  return tag
}

// Builds a small image from a Containerfile and the files given (path in the context: source).
async function buildFrom(
  podman: Podman,
  tag: string,
  containerfile: string,
  files: Record<string, string>,
): Promise<void> {
  const context = mkdtempSync(join(tmpdir(), 'wg-podman-context-'))
  try {
    for (const [to, from] of Object.entries(files)) {
      mkdirSync(dirname(join(context, to)), { recursive: true })
      cpSync(from, join(context, to), { recursive: true, verbatimSymlinks: true })
    }
    writeFileSync(join(context, 'Containerfile'), containerfile)
    await podman.ok(
      ['build', '--format=docker', '--network=host', `--tag=${tag}`, context],
      `building ${tag}`,
    )
  } finally {
    rmSync(context, { recursive: true, force: true })
  }
}

// The npm that runs this suite: npm sets npm_execpath; else the one on the PATH.
function npmFolder(): string {
  const candidates = [process.env.npm_execpath]
  const which = spawnSync('sh', ['-c', 'command -v npm'], { encoding: 'utf8' }).stdout.trim()
  if (which) candidates.push(realpathSync(which))
  for (const file of candidates) {
    if (!file) continue
    const folder = dirname(dirname(file))
    const manifest = join(folder, 'package.json')
    if (existsSync(manifest) && JSON.parse(readFileSync(manifest, 'utf8')).name === 'npm')
      return folder
  }
  throw new Error('npm was not found: it is what runs the suite')
}

// The stand-in for node:24-bookworm-slim: what the Dockerfile asks of its base (node and npm on
// the PATH, a `node` user). Node trusts what this machine's Node trusts (NODE_EXTRA_CA_CERTS), so
// that npm in the build reaches the registry through the same network.
async function nodeImage(podman: Podman, debian: string, note: Note): Promise<string> {
  const nodeBinary = join(
    dirname(createRequire(join(ROOT, 'package.json')).resolve('node/package.json')),
    'bin',
    'node',
  )
  const npm = npmFolder()
  const extraCa = process.env.NODE_EXTRA_CA_CERTS
  const ca = extraCa && existsSync(extraCa) ? extraCa : undefined
  const containerfile = [
    `FROM ${debian}`,
    'COPY node /usr/local/bin/node',
    'COPY npm /usr/local/lib/node_modules/npm',
    ...(ca
      ? [
          'COPY extra-ca.crt /usr/local/share/ca-certificates/extra-ca.crt',
          'ENV NODE_EXTRA_CA_CERTS=/usr/local/share/ca-certificates/extra-ca.crt',
        ]
      : []),
    'RUN ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm' +
      ' && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx' +
      " && echo 'node:x:1000:1000::/home/node:/bin/sh' >> /etc/passwd" +
      " && echo 'node:x:1000:' >> /etc/group" +
      ' && mkdir /home/node && chown node:node /home/node',
    'CMD ["node"]',
    '',
  ].join('\n')
  const nodeVersion = spawnSync(nodeBinary, ['--version'], { encoding: 'utf8' }).stdout.trim()
  const npmVersion = JSON.parse(readFileSync(join(npm, 'package.json'), 'utf8')).version as string
  const key = hash(
    containerfile,
    nodeVersion,
    String(statSync(nodeBinary).size),
    npmVersion,
    ca ? readFileSync(ca) : '',
  )
  const tag = `localhost/workgraph-test-node:${key}`
  if (await podman.imageExists(tag)) {
    note(`${tag}: reused`)
    return tag
  }
  const started = performance.now()
  await buildFrom(podman, tag, containerfile, {
    node: nodeBinary,
    npm,
    ...(ca ? { 'extra-ca.crt': ca } : {}),
  })
  note(`${tag}: built ${since(started)}`)
  return tag
}

// The official PostgreSQL image's contract, as compose.yaml uses it: POSTGRES_USER, _PASSWORD and
// _DB make the cluster on first start, the data is in /var/lib/postgresql/data, pg_isready is on
// the PATH.
const POSTGRES_ENTRYPOINT = `#!/bin/sh
set -e
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  printf '%s\\n' "$POSTGRES_PASSWORD" > /tmp/password
  initdb --username="$POSTGRES_USER" --pwfile=/tmp/password --auth-local=trust \\
    --auth-host=scram-sha-256 --locale=C.UTF-8 > /dev/null
  rm /tmp/password
  echo 'host all all all scram-sha-256' >> "$PGDATA/pg_hba.conf"
  echo "create database \\"$POSTGRES_DB\\"" | postgres --single -D "$PGDATA" postgres > /dev/null
fi
exec postgres -c listen_addresses='*'
`

/** This machine's PostgreSQL installation (Debian's layout), or undefined. */
export function localPostgres(): { version: string; bin: string } | undefined {
  const versions = existsSync('/usr/lib/postgresql')
    ? readdirSync('/usr/lib/postgresql')
        .filter((version) => existsSync(`/usr/lib/postgresql/${version}/bin/postgres`))
        .sort((a, b) => Number(b) - Number(a))
    : []
  const version = versions[0]
  return version ? { version, bin: `/usr/lib/postgresql/${version}/bin` } : undefined
}

// The stand-in for compose's postgres:17: the Debian root, this machine's PostgreSQL binaries
// and the libraries they load that the root lacks.
async function postgresImage(podman: Podman, debian: string, note: Note): Promise<string> {
  const installed = localPostgres()
  if (!installed) throw new Error('no PostgreSQL installation under /usr/lib/postgresql')
  const { version, bin } = installed
  const programs = ['postgres', 'initdb', 'pg_isready'].map((name) => join(bin, name))
  const libraries = new Set<string>()
  for (const program of [...programs, `/usr/lib/postgresql/${version}/lib/pg_trgm.so`]) {
    const ldd = succeeded(await run('ldd', [program]), `ldd ${program}`)
    for (const match of ldd.matchAll(/=> (\/\S+)/g)) if (match[1]) libraries.add(match[1])
  }
  const multiarch = basename(dirname([...libraries][0] ?? '/usr/lib/x86_64-linux-gnu/libc.so.6'))
  const containerfile = [
    `FROM ${debian}`,
    `COPY lib /usr/lib/postgresql/${version}/lib`,
    `COPY bin /usr/lib/postgresql/${version}/bin`,
    `COPY share /usr/share/postgresql/${version}`,
    'COPY libraries /tmp/libraries',
    'COPY entrypoint /usr/local/bin/postgres-entrypoint',
    `RUN for library in /tmp/libraries/*; do [ -e /usr/lib/${multiarch}/$(basename $library) ]` +
      ` || cp $library /usr/lib/${multiarch}/; done && rm -r /tmp/libraries` +
      " && echo 'postgres:x:999:999::/var/lib/postgresql:/bin/sh' >> /etc/passwd" +
      " && echo 'postgres:x:999:' >> /etc/group" +
      ' && mkdir -p /var/lib/postgresql/data /var/run/postgresql' +
      ' && chown -R postgres:postgres /var/lib/postgresql /var/run/postgresql' +
      ' && chmod +x /usr/local/bin/postgres-entrypoint',
    `ENV PATH=/usr/lib/postgresql/${version}/bin:${PATH} PGDATA=/var/lib/postgresql/data`,
    'USER postgres',
    'ENTRYPOINT ["/usr/local/bin/postgres-entrypoint"]',
    '',
  ].join('\n')
  const postgresVersion = spawnSync(join(bin, 'postgres'), ['--version'], { encoding: 'utf8' })
  const key = hash(containerfile, POSTGRES_ENTRYPOINT, postgresVersion.stdout, ...libraries)
  const tag = `localhost/workgraph-test-postgres:${key}`
  if (await podman.imageExists(tag)) {
    note(`${tag}: reused`)
    return tag
  }
  const started = performance.now()
  const files: Record<string, string> = {
    bin,
    share: `/usr/share/postgresql/${version}`,
  }
  // The server's modules, without the LLVM bitcode of its JIT, which it never needs.
  const lib = `/usr/lib/postgresql/${version}/lib`
  for (const entry of readdirSync(lib))
    if (entry !== 'bitcode') files[`lib/${entry}`] = join(lib, entry)
  for (const library of libraries) files[`libraries/${basename(library)}`] = realpathSync(library)
  const context = mkdtempSync(join(tmpdir(), 'wg-postgres-entrypoint-'))
  try {
    writeFileSync(join(context, 'entrypoint'), POSTGRES_ENTRYPOINT)
    files.entrypoint = join(context, 'entrypoint')
    await buildFrom(podman, tag, containerfile, files)
  } finally {
    rmSync(context, { recursive: true, force: true })
  }
  note(`${tag}: built ${since(started)}`)
  return tag
}

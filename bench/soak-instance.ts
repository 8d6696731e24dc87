import { spawn } from 'node:child_process'
import { createWriteStream, readFileSync } from 'node:fs'
import { createServer } from 'node:net'

/** One `workgraph serve` process of the soak: its address, pid, memory and log file. */
export interface Instance {
  base: string
  pid: number
  rssMb: () => number
  stop: () => Promise<void>
}

/**
 * Starts `workgraph serve` like `startServer` (http-load.ts) does, with the same generous rate
 * limits, but keeps what the soak needs and that one hides: the pid (to read VmRSS as the run goes)
 * and the log (stdout and stderr, warnings and errors, into `logFile` to explain any error).
 * `env` adds to the environment it inherits.
 */
export async function startInstance(
  main: string,
  args: string[],
  secret: string,
  logFile: string,
  env: Record<string, string> = {},
): Promise<Instance> {
  const port = await freePort()
  // As `npm start` runs it (a 16 MB young generation); at info, each minute's request summary.
  const flags = ['--max-semi-space-size=16']
  const server = spawn(
    process.execPath,
    [...flags, main, 'serve', '--port', String(port), ...args],
    {
      env: {
        ...process.env,
        ...env,
        WORKGRAPH_SECRET: secret,
        LOG_LEVEL: 'info',
        RATE_LIMIT_READS_PER_MINUTE: '10000000',
        RATE_LIMIT_WRITES_PER_MINUTE: '10000000',
        // Every client of the soak shares one address, as behind a proxy: its open loop and
        // followers together would pass one client's connection limit.
        HTTP_MAX_CONNECTIONS_PER_CLIENT: '0',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  const log = createWriteStream(logFile)
  server.stderr.pipe(log)
  let exited = false
  await new Promise<void>((ready, fail) => {
    let out = ''
    server.stdout.on('data', (chunk: Buffer) => {
      log.write(chunk)
      out += chunk
      if (out.includes('listening on')) ready()
    })
    server.on('exit', (code) => {
      exited = true
      fail(new Error(`server exited with ${code}; see ${logFile}`))
    })
  })
  const pid = server.pid ?? 0
  return {
    base: `http://127.0.0.1:${port}`,
    pid,
    rssMb: () => (exited ? 0 : statusMb(pid, 'VmRSS')),
    stop: () =>
      new Promise<void>((done) => {
        if (exited) return done()
        server.on('exit', () => log.end(done))
        server.kill('SIGTERM')
      }),
  }
}

/** A field of /proc/<pid>/status in MB (VmRSS: resident now; VmHWM: the peak). */
function statusMb(pid: number, field: string): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  return Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) / 1024
}

// Asked of the kernel rather than drawn at random: two instances must not pick the same port.
function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const probe = createServer()
    probe.once('error', fail)
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address()
      probe.close(() => done(typeof address === 'object' && address ? address.port : 0))
    })
  })
}

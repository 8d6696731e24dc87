import { randomBytes } from 'node:crypto'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { checkDataFolder } from './lib/data-folder-check.ts'
import { isLoopbackHost } from './lib/loopback.ts'

/** Every setting of the service, parsed once at start and then frozen. */
export interface Config {
  readonly port: number
  readonly host: string
  /** PostgreSQL connection string; absent means the embedded database under `dataDir`. */
  readonly databaseUrl: string | undefined
  readonly dataDir: string
  /** This API's own base URL (`{base_url}` of the interface document). */
  readonly publicUrl: string
  /** The base URL of resource pages, used in every `url` field; PUBLIC_URL unless set. */
  readonly appUrl: string
  readonly logLevel: string
  readonly bodyLimitBytes: number
  readonly readRateLimitPerMinute: number
  readonly writeRateLimitPerMinute: number
  readonly webhooksAllowHttpLoopback: boolean
  /** Whether `serve` also dispatches webhooks (off when separate `workgraph worker`s do). */
  readonly webhooksDispatch: boolean
  readonly webhookLogRetentionDays: number
  /** Whether apps may register themselves at /oauth/register (RFC 7591). */
  readonly oauthDynamicRegistration: boolean
  /** When set, registration needs this value as a Bearer initial access token. */
  readonly oauthRegistrationToken: string | undefined
  /** Sign-in attempts allowed per email address and per IP address each minute. */
  readonly oauthSignInsPerMinute: number
  /** Open MCP change streams allowed per person (or integration), per workspace, per process. */
  readonly mcpStreamsPerPerson: number
  readonly mcpStreamsPerWorkspace: number
  readonly mcpStreamsPerProcess: number
  /** How long a change stream's client may leave what it was sent unread. */
  readonly mcpStreamUnreadTimeoutMs: number
  /** How long a whole request may take to arrive, and a gap in its body. */
  readonly httpRequestTimeoutMs: number
  readonly httpBodyIdleTimeoutMs: number
  readonly httpKeepAliveTimeoutMs: number
  /** Connections the process holds for requests, and one client may hold (0: no limit). */
  readonly httpMaxConnections: number
  readonly httpMaxConnectionsPerClient: number
  /** Bounds of every wait on the database (docs/configuration.md, "Bounded waits"). */
  readonly dbStatementTimeoutMs: number
  readonly dbLockTimeoutMs: number
  readonly dbIdleInTransactionTimeoutMs: number
  readonly dbPoolWaitMs: number
  /** Whether the embedded database's commits wait for the disk. */
  readonly embeddedFsync: boolean
  /** The SMTP server invitations are sent through (`smtp://` or `smtps://`); unset, none are. */
  readonly smtpUrl: string | undefined
  /** The From address of the service's email. */
  readonly mailFrom: string
  /** The bearer token `GET /metrics` asks for; unset, there is no such route. */
  readonly metricsToken: string | undefined
  /** The port `workgraph worker` serves `/metrics` on, when `metricsToken` is set. */
  readonly metricsPort: number
  /** The OpenID Connect identity provider people may sign in through; unset, none. */
  readonly sso: SsoSettings | undefined
  /** Whether people may sign in with an email and password (off: the identity provider only). */
  readonly passwordSignIn: boolean
}

/** The identity provider of single sign-on (docs/operations.md, "Single sign-on"). */
export interface SsoSettings {
  /** Its issuer identifier, exactly as its discovery document states it. */
  readonly issuer: string
  readonly clientId: string
  /** Unset for a public client, which PKCE alone protects. */
  readonly clientSecret: string | undefined
  /** How the sign-in button names it: "Sign in with {name}". */
  readonly name: string
}

/** One documented setting: its environment variable, CLI flag and default. */
export interface SettingSpec {
  readonly env: string
  readonly flag?: string
  readonly description: string
  readonly default: string
}

/** The settings catalogue; docs/configuration.md lists exactly these (a test holds them together). */
export const SETTINGS: readonly SettingSpec[] = [
  {
    env: 'PORT',
    flag: '--port',
    default: '8080',
    description: 'TCP port the HTTP server listens on.',
  },
  {
    env: 'HOST',
    flag: '--host',
    default: '127.0.0.1',
    description: 'Interface to bind; `0.0.0.0` to accept remote connections.',
  },
  {
    env: 'DATABASE_URL',
    flag: '--database-url',
    default: '(unset: embedded database)',
    description:
      'PostgreSQL connection string. When unset, the embedded PGlite database under `WORKGRAPH_DATA` is used.',
  },
  {
    env: 'WORKGRAPH_DATA',
    flag: '--data',
    default: './.workgraph',
    description: 'Folder of the embedded database, its lock key and the generated secret.',
  },
  {
    env: 'EMBEDDED_FSYNC',
    default: 'true',
    description:
      "Whether the embedded database's commits wait for the disk, so that an acknowledged write survives a crash of the machine. `false` for demos and tests: faster, and safe against a crash of the process only.",
  },
  {
    env: 'PUBLIC_URL',
    default: 'http://HOST:PORT',
    description:
      "This API's base URL as clients reach it; used in `api_url` fields and OAuth metadata.",
  },
  {
    env: 'APP_URL',
    default: '`PUBLIC_URL`',
    description:
      "The base URL of the pages every record's `url` opens (`APP_URL/{workspace_id}/{type}/{id}`); by default this service's own dashboard (docs/dashboard.md).",
  },
  {
    env: 'WORKGRAPH_SECRET',
    default: '(embedded: generated into the data folder)',
    description:
      'At least 32 random bytes, base64. Encrypts cursors and webhook secrets and derives the OAuth keys. Required with PostgreSQL, and the same on every instance.',
  },
  {
    env: 'LOG_LEVEL',
    default: 'info',
    description: 'Log level: `fatal`, `error`, `warn`, `info`, `debug`, `trace` or `silent`.',
  },
  {
    env: 'BODY_LIMIT_BYTES',
    default: '1048576',
    description: 'Largest accepted request body; larger ones get 413 `payload_too_large`.',
  },
  {
    env: 'RATE_LIMIT_READS_PER_MINUTE',
    default: '600',
    description: 'Read requests a token may make per minute.',
  },
  {
    env: 'RATE_LIMIT_WRITES_PER_MINUTE',
    default: '120',
    description: 'Write requests a token may make per minute.',
  },
  {
    env: 'WEBHOOKS_ALLOW_HTTP_LOOPBACK',
    default: 'false',
    description:
      'Development only: allow plain `http` webhook endpoints on loopback addresses. `serve --demo` turns it on unless it is set.',
  },
  {
    env: 'WEBHOOKS_DISPATCH',
    default: 'true',
    description:
      'Whether `serve` delivers webhooks itself. Set `false` on API instances when `workgraph worker` processes deliver them.',
  },
  {
    env: 'WEBHOOK_LOG_RETENTION_DAYS',
    default: '30',
    description:
      'Days webhook attempts (request and response bytes) and finished deliveries are kept.',
  },
  {
    env: 'OAUTH_DYNAMIC_REGISTRATION',
    default: 'false',
    description:
      'Set to `true` to let apps register themselves as OAuth clients at `/oauth/register` (RFC 7591).',
  },
  {
    env: 'OAUTH_REGISTRATION_TOKEN',
    default: '(unset: registration is open when enabled)',
    description:
      'When set, dynamic registration requires it as `Authorization: Bearer …` (an initial access token).',
  },
  {
    env: 'OAUTH_SIGN_INS_PER_MINUTE',
    default: '10',
    description:
      'Sign-in attempts on the OAuth login page allowed per email address, and per IP address, each minute.',
  },
  {
    env: 'MCP_STREAMS_PER_PERSON',
    default: '10',
    description:
      'Open MCP change streams (`subscriptions/listen`) one person or integration may hold, whatever its keys (each key holds at most 5).',
  },
  {
    env: 'MCP_STREAMS_PER_WORKSPACE',
    default: '100',
    description: 'Open MCP change streams the people of one workspace may hold together.',
  },
  {
    env: 'MCP_STREAMS_PER_PROCESS',
    default: '500',
    description: 'Open MCP change streams one server process holds in all.',
  },
  {
    env: 'MCP_STREAM_UNREAD_TIMEOUT_MS',
    default: '15000',
    description:
      'How long an MCP change stream may leave what it was sent unread (its connection full) before the server ends it.',
  },
  {
    env: 'HTTP_REQUEST_TIMEOUT_MS',
    default: '30000',
    description:
      'How long a request (its headers and body) may take to arrive; then 408 `request_timeout`. Headers alone get at most 15 s of it.',
  },
  {
    env: 'HTTP_BODY_IDLE_TIMEOUT_MS',
    default: '10000',
    description: 'The longest gap between two parts of a request body; then 408 `request_timeout`.',
  },
  {
    env: 'HTTP_KEEP_ALIVE_TIMEOUT_MS',
    default: '65000',
    description:
      "How long an idle kept-alive connection stays open between requests: longer than a load balancer's own idle timeout (often 60 s), so it never sends a request on a connection this server is closing.",
  },
  {
    env: 'HTTP_MAX_CONNECTIONS',
    default: '1000',
    description:
      'Connections one process holds for requests; 16 more answer health checks only. Lowered to fit the open-file limit.',
  },
  {
    env: 'HTTP_MAX_CONNECTIONS_PER_CLIENT',
    default: '100',
    description:
      'Connections one client address may hold; past it a new one is closed at once. `0`: no limit (behind a proxy whose address every client shares).',
  },
  {
    env: 'DB_STATEMENT_TIMEOUT_MS',
    default: '15000',
    description:
      'The longest one statement may run (PostgreSQL); then 503 with `Retry-After`. Imports and migrations set their own.',
  },
  {
    env: 'DB_LOCK_TIMEOUT_MS',
    default: '5000',
    description:
      'The longest a statement waits for a lock (PostgreSQL); then 503 with `Retry-After`.',
  },
  {
    env: 'DB_IDLE_IN_TRANSACTION_TIMEOUT_MS',
    default: '30000',
    description:
      'A transaction left idle this long is ended by the database (PostgreSQL), freeing its locks.',
  },
  {
    env: 'DB_POOL_WAIT_MS',
    default: '10000',
    description:
      'The longest a request waits for a database connection from the pool (the embedded database has one, so a burst of writes queues there); then 503 with `Retry-After`.',
  },
  {
    env: 'WORKGRAPH_SMTP_URL',
    default: '(unset: no email is sent)',
    description:
      'The SMTP server invitations are sent through: `smtp://user:password@host:587` (STARTTLS when the server offers it) or `smtps://…:465`. Unset, an invitation answers its link for you to pass on.',
  },
  {
    env: 'WORKGRAPH_MAIL_FROM',
    default: 'Workgraph <workgraph@HOST>',
    description: 'The From address of invitation emails.',
  },
  {
    env: 'METRICS_TOKEN',
    default: '(unset: no `/metrics`)',
    description:
      'Turns on `GET /metrics` (Prometheus) for scrapers that send it as `Authorization: Bearer …` ([operations.md](operations.md#metrics)).',
  },
  {
    env: 'METRICS_PORT',
    default: '9464',
    description:
      'The port `workgraph worker`, which serves no API, serves `GET /metrics` and `GET /healthz` on, on `HOST`, when `METRICS_TOKEN` is set. `serve` answers `/metrics` on its own port.',
  },
  {
    env: 'SSO_ISSUER',
    default: '(unset: no single sign-on)',
    description:
      'The issuer of an OpenID Connect identity provider people may sign in through (its metadata is discovered from it): `https`, or `http` on a loopback address ([operations.md](operations.md#single-sign-on)).',
  },
  {
    env: 'SSO_CLIENT_ID',
    default: '(required with `SSO_ISSUER`)',
    description: "This server's client id at the identity provider.",
  },
  {
    env: 'SSO_CLIENT_SECRET',
    default: '(unset: a public client, PKCE only)',
    description: "This server's client secret at the identity provider. The value is never logged.",
  },
  {
    env: 'SSO_NAME',
    default: "the issuer's host",
    description: 'How the sign-in pages name the identity provider: "Sign in with {SSO_NAME}".',
  },
  {
    env: 'PASSWORD_SIGN_IN',
    default: 'true',
    description:
      '`false` turns sign-in with an email and password off: both sign-in pages and the join page offer only the identity provider, and a posted password is refused. Needs `SSO_ISSUER`.',
  },
]

/** Values given on the command line; they win over the environment. */
export interface ConfigFlags {
  port?: string | undefined
  host?: string | undefined
  databaseUrl?: string | undefined
  data?: string | undefined
}

/** A setting that cannot be used; the CLI prints the message and exits with status 2. */
export class ConfigError extends Error {}

/** Reads every setting from flags and the environment, validating as it goes. */
export function loadConfig(env: NodeJS.ProcessEnv, flags: ConfigFlags = {}): Config {
  if (flags.data !== undefined && flags.databaseUrl !== undefined)
    throw new ConfigError('Give --data or --database-url, not both.')
  const port = integer('PORT', flags.port ?? env.PORT ?? '8080', 0, 65535)
  const host = flags.host ?? env.HOST ?? '127.0.0.1'
  const publicUrl = url('PUBLIC_URL', env.PUBLIC_URL ?? `http://${host}:${port}`)
  return Object.freeze({
    port,
    host,
    // A flag names the database outright: `--data` means the embedded one even where the
    // environment has a DATABASE_URL (a shell exported for another project, a CI job).
    databaseUrl:
      flags.data === undefined ? nonEmpty(flags.databaseUrl ?? env.DATABASE_URL) : undefined,
    dataDir: resolve(flags.data ?? env.WORKGRAPH_DATA ?? '.workgraph'),
    publicUrl,
    // The dashboard serves every resource's page, so by default `url` fields lead to it.
    appUrl: url('APP_URL', env.APP_URL ?? publicUrl),
    logLevel: logLevel(env.LOG_LEVEL ?? 'info'),
    bodyLimitBytes: integer('BODY_LIMIT_BYTES', env.BODY_LIMIT_BYTES ?? '1048576', 1024, 64 << 20),
    readRateLimitPerMinute: integer(
      'RATE_LIMIT_READS_PER_MINUTE',
      env.RATE_LIMIT_READS_PER_MINUTE ?? '600',
      1,
      1e7,
    ),
    writeRateLimitPerMinute: integer(
      'RATE_LIMIT_WRITES_PER_MINUTE',
      env.RATE_LIMIT_WRITES_PER_MINUTE ?? '120',
      1,
      1e7,
    ),
    webhooksAllowHttpLoopback: boolean(
      'WEBHOOKS_ALLOW_HTTP_LOOPBACK',
      env.WEBHOOKS_ALLOW_HTTP_LOOPBACK ?? 'false',
    ),
    webhooksDispatch: boolean('WEBHOOKS_DISPATCH', env.WEBHOOKS_DISPATCH ?? 'true'),
    webhookLogRetentionDays: integer(
      'WEBHOOK_LOG_RETENTION_DAYS',
      env.WEBHOOK_LOG_RETENTION_DAYS ?? '30',
      1,
      3650,
    ),
    oauthDynamicRegistration: boolean(
      'OAUTH_DYNAMIC_REGISTRATION',
      env.OAUTH_DYNAMIC_REGISTRATION ?? 'false',
    ),
    oauthRegistrationToken: nonEmpty(env.OAUTH_REGISTRATION_TOKEN),
    oauthSignInsPerMinute: integer(
      'OAUTH_SIGN_INS_PER_MINUTE',
      env.OAUTH_SIGN_INS_PER_MINUTE ?? '10',
      1,
      1e6,
    ),
    mcpStreamsPerPerson: integer(
      'MCP_STREAMS_PER_PERSON',
      env.MCP_STREAMS_PER_PERSON ?? '10',
      1,
      1e5,
    ),
    mcpStreamsPerWorkspace: integer(
      'MCP_STREAMS_PER_WORKSPACE',
      env.MCP_STREAMS_PER_WORKSPACE ?? '100',
      1,
      1e5,
    ),
    mcpStreamsPerProcess: integer(
      'MCP_STREAMS_PER_PROCESS',
      env.MCP_STREAMS_PER_PROCESS ?? '500',
      1,
      1e5,
    ),
    mcpStreamUnreadTimeoutMs: integer(
      'MCP_STREAM_UNREAD_TIMEOUT_MS',
      env.MCP_STREAM_UNREAD_TIMEOUT_MS ?? '15000',
      100,
      3_600_000,
    ),
    embeddedFsync: boolean('EMBEDDED_FSYNC', env.EMBEDDED_FSYNC ?? 'true'),
    smtpUrl: smtpUrl(nonEmpty(env.WORKGRAPH_SMTP_URL)),
    mailFrom:
      nonEmpty(env.WORKGRAPH_MAIL_FROM) ?? `Workgraph <workgraph@${new URL(publicUrl).hostname}>`,
    metricsToken: nonEmpty(env.METRICS_TOKEN),
    metricsPort: integer('METRICS_PORT', env.METRICS_PORT ?? '9464', 0, 65535),
    ...signIn(env),
    ...httpLimits(env),
    ...databaseWaits(env),
  })
}

/**
 * The service secret. With PostgreSQL it must come from `WORKGRAPH_SECRET` so that every instance
 * shares it; the embedded database generates one into its data folder on first start.
 */
export function loadSecret(env: NodeJS.ProcessEnv, config: Config): Buffer {
  if (env.WORKGRAPH_SECRET) return decodeSecret(env.WORKGRAPH_SECRET)
  if (config.databaseUrl) {
    throw new ConfigError(
      'WORKGRAPH_SECRET is required with PostgreSQL (32+ random bytes, base64): every instance must share it.',
    )
  }
  checkDataFolder(config.dataDir)
  const file = join(config.dataDir, 'secret')
  if (!existsSync(file))
    writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' })
  return decodeSecret(readFileSync(file, 'utf8').trim())
}

function decodeSecret(value: string): Buffer {
  const secret = Buffer.from(value, 'base64')
  if (secret.length < 32)
    throw new ConfigError('WORKGRAPH_SECRET must decode (base64) to at least 32 bytes.')
  return secret
}

// Without a password and without a provider nobody could sign in: refused at start.
function signIn(env: NodeJS.ProcessEnv): Pick<Config, 'sso' | 'passwordSignIn'> {
  const sso = ssoSettings(env)
  const passwordSignIn = boolean('PASSWORD_SIGN_IN', env.PASSWORD_SIGN_IN ?? 'true')
  if (!passwordSignIn && sso === undefined)
    throw new ConfigError('PASSWORD_SIGN_IN=false needs SSO_ISSUER: nobody could sign in.')
  return { sso, passwordSignIn }
}

function ssoSettings(env: NodeJS.ProcessEnv): SsoSettings | undefined {
  const issuer = nonEmpty(env.SSO_ISSUER)
  const clientId = nonEmpty(env.SSO_CLIENT_ID)
  const clientSecret = nonEmpty(env.SSO_CLIENT_SECRET)
  if (issuer === undefined) {
    if (clientId !== undefined || clientSecret !== undefined || nonEmpty(env.SSO_NAME))
      throw new ConfigError('SSO_CLIENT_ID, SSO_CLIENT_SECRET and SSO_NAME need SSO_ISSUER.')
    return undefined
  }
  const parsed = URL.parse(issuer)
  // Plain http would let anyone on the way forge who signs in; only loopback stays on the machine.
  const secure =
    parsed?.protocol === 'https:' ||
    (parsed?.protocol === 'http:' && isLoopbackHost(parsed.hostname))
  if (!parsed || !secure || parsed.search !== '' || parsed.hash !== '' || parsed.username !== '')
    throw new ConfigError(
      `SSO_ISSUER must be an https URL (http only on a loopback address) without query or fragment; got "${issuer}".`,
    )
  if (clientId === undefined) throw new ConfigError('SSO_ISSUER needs SSO_CLIENT_ID.')
  return { issuer, clientId, clientSecret, name: nonEmpty(env.SSO_NAME) ?? parsed.host }
}

function httpLimits(env: NodeJS.ProcessEnv) {
  return {
    httpRequestTimeoutMs: integer(
      'HTTP_REQUEST_TIMEOUT_MS',
      env.HTTP_REQUEST_TIMEOUT_MS ?? '30000',
      100,
      3_600_000,
    ),
    httpBodyIdleTimeoutMs: integer(
      'HTTP_BODY_IDLE_TIMEOUT_MS',
      env.HTTP_BODY_IDLE_TIMEOUT_MS ?? '10000',
      100,
      3_600_000,
    ),
    httpKeepAliveTimeoutMs: integer(
      'HTTP_KEEP_ALIVE_TIMEOUT_MS',
      env.HTTP_KEEP_ALIVE_TIMEOUT_MS ?? '65000',
      100,
      3_600_000,
    ),
    httpMaxConnections: integer('HTTP_MAX_CONNECTIONS', env.HTTP_MAX_CONNECTIONS ?? '1000', 1, 1e6),
    httpMaxConnectionsPerClient: integer(
      'HTTP_MAX_CONNECTIONS_PER_CLIENT',
      env.HTTP_MAX_CONNECTIONS_PER_CLIENT ?? '100',
      0,
      1e6,
    ),
  }
}

function databaseWaits(env: NodeJS.ProcessEnv) {
  return {
    dbStatementTimeoutMs: integer(
      'DB_STATEMENT_TIMEOUT_MS',
      env.DB_STATEMENT_TIMEOUT_MS ?? '15000',
      100,
      86_400_000,
    ),
    dbLockTimeoutMs: integer(
      'DB_LOCK_TIMEOUT_MS',
      env.DB_LOCK_TIMEOUT_MS ?? '5000',
      100,
      86_400_000,
    ),
    dbIdleInTransactionTimeoutMs: integer(
      'DB_IDLE_IN_TRANSACTION_TIMEOUT_MS',
      env.DB_IDLE_IN_TRANSACTION_TIMEOUT_MS ?? '30000',
      100,
      86_400_000,
    ),
    dbPoolWaitMs: integer('DB_POOL_WAIT_MS', env.DB_POOL_WAIT_MS ?? '10000', 100, 600_000),
  }
}

function integer(name: string, value: string, min: number, max: number): number {
  const n = Number(value)
  if (!/^\d+$/.test(value) || n < min || n > max) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max}; got "${value}".`)
  }
  return n
}

function url(name: string, value: string): string {
  try {
    const parsed = new URL(value)
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error('scheme')
    return value.replace(/\/+$/, '')
  } catch {
    throw new ConfigError(`${name} must be an http(s) URL; got "${value}".`)
  }
}

function smtpUrl(value: string | undefined): string | undefined {
  if (value === undefined) return undefined
  let scheme: string
  try {
    scheme = new URL(value).protocol
  } catch {
    scheme = ''
  }
  // Never echo the value: it may hold the SMTP password.
  if (scheme !== 'smtp:' && scheme !== 'smtps:')
    throw new ConfigError('WORKGRAPH_SMTP_URL must be an smtp:// or smtps:// URL.')
  return value
}

function boolean(name: string, value: string): boolean {
  if (/^(1|true|yes)$/i.test(value)) return true
  if (/^(0|false|no|)$/i.test(value)) return false
  throw new ConfigError(`${name} must be true or false; got "${value}".`)
}

function logLevel(value: string): string {
  const levels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']
  if (!levels.includes(value))
    throw new ConfigError(`LOG_LEVEL must be one of ${levels.join(', ')}.`)
  return value
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value
}

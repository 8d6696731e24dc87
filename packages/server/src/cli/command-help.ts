/** One command's help: what it does, how to call it, and each option in a line. */
interface CommandHelp {
  summary: string
  usage: string[]
  options: [flag: string, meaning: string][]
}

const DATABASE: [string, string][] = [
  ['--data DIR', 'the embedded database folder (default ./.workgraph)'],
  ['--database-url URL', 'PostgreSQL instead (or DATABASE_URL)'],
]

/** The help of every command, the single source of `workgraph --help` and `<command> --help`. */
export const COMMAND_HELP: Record<string, CommandHelp> = {
  serve: {
    summary: 'Runs the API, the dashboard and the webhook dispatcher until SIGTERM or SIGINT.',
    usage: ['serve   [--port 8080] [--host 127.0.0.1] [--data DIR | --database-url URL] [--demo]'],
    options: [
      ['--port N', 'the port to listen on (default 8080, or PORT)'],
      ['--host H', 'the address to listen on (default 127.0.0.1, or HOST)'],
      ...DATABASE,
      ['--demo', 'import the demo workspace first if there is none, and print a key to try'],
    ],
  },
  init: {
    summary:
      'Starts a new server: a workspace, its owner and their first API key (shown once); refuses if one exists.',
    usage: [
      'init    --workspace-name NAME --name NAME --email EMAIL [--no-password]',
      '        [--another-workspace] [--data DIR | --database-url URL]',
    ],
    options: [
      ['--workspace-name NAME', "the workspace's name"],
      ['--name NAME', "the owner's name"],
      ['--email EMAIL', "the owner's email, which they sign in with"],
      [
        '--no-password',
        'print a one-time link (24 hours) to choose the password, instead of asking',
      ],
      ['--another-workspace', 'add a workspace to a database that has one already'],
      ...DATABASE,
    ],
  },
  import: {
    summary:
      'Imports a workspace bundle in one transaction, or lists every problem and writes nothing.',
    usage: ['import  FILE [--data DIR | --database-url URL] [--json]'],
    options: [
      ['FILE', 'the bundle (docs/bundles.md); `workgraph demo` writes an example'],
      ...DATABASE,
      ['--json', 'print the ids and the secrets it created as JSON (errors too)'],
    ],
  },
  demo: {
    summary: 'Writes the demo workspace as a bundle, or a generated one of any size.',
    usage: ['demo    [--out FILE] [--scale N] [--seed S] [--today YYYY-MM-DD]'],
    options: [
      ['--out FILE', 'write to FILE instead of standard output'],
      ['--scale N', 'a generated workspace of about N items (10 to 5,000,000)'],
      ['--seed S', 'the seed of the random choices, for the same bundle again'],
      ['--today YYYY-MM-DD', 'the date the bundle is written around (default today)'],
    ],
  },
  migrate: {
    summary: 'Applies pending schema migrations (serve does it too, at start).',
    usage: ['migrate [--data DIR | --database-url URL]'],
    options: DATABASE,
  },
  worker: {
    summary: 'Delivers webhooks from a separate process; run as many as you like.',
    usage: ['worker  [--data DIR | --database-url URL] [--once]'],
    options: [...DATABASE, ['--once', 'deliver what is due now, then exit']],
  },
  'oauth-client': {
    summary:
      'Registers an OAuth app (docs/oauth.md); the secret of a confidential one is shown once.',
    usage: [
      'oauth-client create --name NAME --redirect-uri URI [--redirect-uri URI…]',
      '                    [--confidential] [--workspace wsp_…] [--json] [--data DIR | --database-url URL]',
    ],
    options: [
      ['--name NAME', 'the name people see on the consent page'],
      ['--redirect-uri URI', 'an exact redirect URI; repeat for several'],
      ['--confidential', 'a server-side app with a secret (default: public, PKCE only)'],
      ['--workspace wsp_…', "only this workspace's people may authorize it"],
      ['--json', 'print the client as JSON (errors too)'],
      ...DATABASE,
    ],
  },
  user: {
    summary:
      'Sets the password an email signs in with in every workspace, asked without echo (or piped); ends their sessions.',
    usage: ['user    set-password --email EMAIL [--data DIR | --database-url URL]'],
    options: [['--email EMAIL', 'the person, in every workspace they belong to'], ...DATABASE],
  },
  mcp: {
    summary:
      'The MCP tools over stdio, relayed to WORKGRAPH_URL with WORKGRAPH_API_KEY (docs/mcp.md).',
    usage: ['mcp'],
    options: [],
  },
  invite: {
    summary:
      'Invites a person to the workspace of WORKGRAPH_API_KEY on WORKGRAPH_URL and prints the one-time link.',
    usage: ['invite  --email EMAIL [--role member|guest|admin] [--name NAME]'],
    options: [
      ['--email EMAIL', 'who to invite; the link is also emailed when the server has SMTP'],
      ['--role ROLE', 'member (default), guest, or admin (an owner only)'],
      ['--name NAME', 'the name the join page offers them'],
    ],
  },
  listen: {
    summary:
      'Forwards the webhooks of WORKGRAPH_URL to your app, through a temporary endpoint (docs/webhooks.md).',
    usage: ['listen  --forward-to URL [--events task.created,…] [--projects NAME,…]'],
    options: [
      ['--forward-to URL', 'your app: each signed delivery is passed on to it unchanged'],
      ['--events LIST', 'only these events (default: every event)'],
      [
        '--projects LIST',
        'only events about these projects (ids or names) and what is in them (default: all)',
      ],
    ],
  },
  backup: {
    summary:
      'Writes a consistent copy of the database to FILE while servers run (docs/operations.md).',
    usage: ['backup  --out FILE [--data DIR | --database-url URL] [--json]'],
    options: [
      ['--out FILE', 'the backup, written whole or not at all; it holds no server secret'],
      ...DATABASE,
      ['--json', 'print the file, its format and size as JSON (errors too)'],
    ],
  },
  restore: {
    summary:
      'Restores a backup into an empty data folder or an empty PostgreSQL database; refuses any other.',
    usage: ['restore FILE [--data DIR | --database-url URL] [--json]'],
    options: [
      ['FILE', 'a `workgraph backup` file: an embedded database, or a pg_dump custom-format dump'],
      ...DATABASE,
      ['--json', 'print what was restored as JSON (errors too)'],
    ],
  },
  move: {
    summary:
      'Copies the embedded database into an empty PostgreSQL database and verifies the copy; the folder is left as it was.',
    usage: ['move    --to URL [--data DIR] [--json]'],
    options: [
      ['--to URL', 'the PostgreSQL database (postgres://…): empty, or migrated with no rows'],
      ['--data DIR', 'the embedded database folder (default ./.workgraph); stop its server first'],
      ['--json', 'print the verification report as JSON (errors too)'],
    ],
  },
}

/** `workgraph <command> --help`. */
export function commandHelpText(name: string): string {
  const help = COMMAND_HELP[name]
  if (!help) throw new Error(`no help for ${name}`)
  const width = Math.max(0, ...help.options.map(([flag]) => flag.length))
  return [
    `workgraph ${name}: ${help.summary}`,
    '',
    'Usage:',
    ...help.usage.map((line) => `  workgraph ${line}`),
    ...(help.options.length > 0 ? ['', 'Options:'] : []),
    ...help.options.map(([flag, meaning]) => `  ${flag.padEnd(width)}  ${meaning}`),
    '',
  ].join('\n')
}

/** `workgraph --help`: every command's usage. */
export function overviewText(): string {
  return [
    'workgraph: the Workgraph API server and its tools',
    '',
    'Usage:',
    ...Object.values(COMMAND_HELP).flatMap((help) =>
      help.usage.map((line) => `  workgraph ${line}`),
    ),
    '',
    '`workgraph <command> --help` explains a command; `workgraph --version` prints the version.',
    'Without --database-url (or DATABASE_URL) the embedded database in --data (default ./.workgraph)',
    'is used. Every setting is described in docs/configuration.md.',
    '',
  ].join('\n')
}

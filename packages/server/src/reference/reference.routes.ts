import type { FastifyInstance } from 'fastify'
import { scalarBundle } from './scalar-bundle.ts'

const PUBLIC = { config: { public: true }, schema: { hide: true } } as const

// Scalar's default greys and method colours are too faint for WCAG AA's 4.5:1: on white (the
// page) darker shades of the same hues, on black (the code samples' cards) lighter ones.
const THEME = `.light-mode {
  --scalar-color-2: #4d4d4d;
  --scalar-color-3: #5e5e5e;
  --scalar-color-green: #0b6e35;
  --scalar-color-blue: #0a58a8;
  --scalar-color-orange: #9a4a00;
  --scalar-color-yellow: #735c00;
  --scalar-color-red: #b0231b;
  --scalar-color-purple: #6a3d9a;
}
.dark-mode {
  --scalar-color-red: #ff7a73;
  --scalar-color-purple: #c9a4f5;
}`

// Scalar renders the document served at /v1/openapi.json. Everything that would reach another
// host is off: its fonts, telemetry, the AI agent and the request proxy (the "try it" client
// sends requests from the browser straight to this server).
const SCALAR_CONFIGURATION = {
  url: '/v1/openapi.json',
  withDefaultFonts: false,
  telemetry: false,
  agent: { disabled: true },
  mcp: { disabled: true },
  showDeveloperTools: 'never',
  documentDownloadType: 'json',
  forceDarkModeState: 'light',
  hideDarkModeToggle: true,
  customCss: THEME,
}

// The page's scripts are this server's files only; Scalar injects its stylesheet and sets style
// attributes, hence inline styles. connect-src 'self' keeps the reference from reaching any other
// host, whatever it is configured to do.
const REFERENCE_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ')

// Revalidated at each visit, so a server upgraded to a newer Scalar never serves a stale bundle.
const SCRIPT_HEADERS = {
  'content-type': 'text/javascript; charset=utf-8',
  'cache-control': 'no-cache',
  'x-content-type-options': 'nosniff',
}

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>API reference · Workgraph</title>
</head>
<body>
<noscript>The reference needs JavaScript. The document it renders is
<a href="/v1/openapi.json">/v1/openapi.json</a>.</noscript>
<div id="app"></div>
<script src="/reference/scalar.js"></script>
<script src="/reference/start.js"></script>
</body>
</html>
`

// Scalar's picker between a response's schemas (the record, or a dry run's answer) is named
// "Schema" whatever it shows, so a person who speaks to their computer cannot say what they see
// (WCAG's "label in name"). Its name is made to start with its visible text as it renders.
const NAME_SCHEMA_PICKERS = `new MutationObserver(() => {
  for (const picker of document.querySelectorAll('button[aria-label="Schema"]'))
    picker.setAttribute('aria-label', picker.textContent.trim() + ' (schema)')
}).observe(document.getElementById('app'), { childList: true, subtree: true })`

const START = `Scalar.createApiReference('#app', ${JSON.stringify(SCALAR_CONFIGURATION)})
${NAME_SCHEMA_PICKERS}
`

/**
 * GET /reference: the API reference rendered in the browser from the OpenAPI document, by
 * Scalar's bundle shipped in the package. Public, like the document it renders.
 */
export function referenceRoutes() {
  return async (app: FastifyInstance) => {
    app.get('/reference', PUBLIC, async (_request, reply) =>
      reply
        .headers({
          'content-type': 'text/html; charset=utf-8',
          'cache-control': 'no-cache',
          'content-security-policy': REFERENCE_POLICY,
          'x-frame-options': 'DENY',
          'referrer-policy': 'same-origin',
          'x-content-type-options': 'nosniff',
        })
        .send(PAGE),
    )
    app.get('/reference/start.js', PUBLIC, async (_request, reply) =>
      reply.headers(SCRIPT_HEADERS).send(START),
    )
    app.get('/reference/scalar.js', PUBLIC, async (request, reply) => {
      const bundle = await scalarBundle()
      reply.headers({ ...SCRIPT_HEADERS, etag: bundle.etag })
      if (request.headers['if-none-match'] === bundle.etag) return reply.code(304).send()
      return reply.send(bundle.body)
    })
  }
}

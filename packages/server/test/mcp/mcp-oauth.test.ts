import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js'
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js'
import { Browser } from '../harness/browser.ts'
import { importOk, smallBundle } from '../harness/bundles.ts'
import {
  type ListeningTestApp,
  runBrowserFlow,
  startListeningTestApp,
} from '../harness/oauth-flow.ts'

const PASSWORD = 'correct horse battery staple'
const REDIRECT = 'http://127.0.0.1:9999/callback'

let t: ListeningTestApp
before(async () => {
  t = await startListeningTestApp({ OAUTH_DYNAMIC_REGISTRATION: 'true' })
  const bundle = smallBundle()
  for (const person of bundle.people) person.password = PASSWORD
  await importOk(t.db.db, bundle)
})
after(() => t.close())

/** What an MCP client keeps between runs, in memory; the browser step is scripted. */
class MemoryProvider implements OAuthClientProvider {
  client: OAuthClientInformationMixed | undefined
  saved: OAuthTokens | undefined
  verifier = ''
  authorizationUrl: URL | undefined
  readonly redirectUrl = REDIRECT
  readonly clientMetadata: OAuthClientMetadata = {
    client_name: 'An MCP client',
    redirect_uris: [REDIRECT],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
    scope: 'workspace:read project:read task:read task:write',
  }
  clientInformation() {
    return this.client
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.client = info
  }
  tokens() {
    return this.saved
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier
  }
  codeVerifier() {
    return this.verifier
  }
}

test('an MCP client discovers the OAuth server, registers, signs in with PKCE and calls tools', async () => {
  const provider = new MemoryProvider()
  const url = new URL(`${t.origin}/mcp`)
  const first = new StreamableHTTPClientTransport(url, { authProvider: provider })
  await assert.rejects(
    new Client({ name: 'agent', version: '1' }).connect(first),
    UnauthorizedError,
  )
  // It registered itself and was sent to the authorization endpoint with PKCE and the resource.
  assert.match(String((provider.client as { client_id?: string }).client_id), /^cli_/)
  const authorization = provider.authorizationUrl as URL
  assert.equal(authorization.searchParams.get('code_challenge_method'), 'S256')
  assert.equal(authorization.searchParams.get('resource'), t.origin)
  // It asked for what the tools need (the challenge's scope), not every scope there is.
  const requested = authorization.searchParams.get('scope')?.split(' ') ?? []
  assert.ok(
    requested.includes('task:write') && !requested.includes('token:manage'),
    requested.join(' '),
  )

  const outcome = await runBrowserFlow(new Browser(t.origin), authorization.toString(), {
    email: 'alice@example.test',
    password: PASSWORD,
  })
  const code = outcome.callback ? new URL(outcome.callback).searchParams.get('code') : null
  assert.ok(code, outcome.page.body)
  await first.finishAuth(code)
  assert.ok(provider.saved?.access_token)

  const mcp = new Client({ name: 'agent', version: '1' })
  await mcp.connect(new StreamableHTTPClientTransport(url, { authProvider: provider }))
  try {
    const names = (await mcp.listTools()).tools.map((tool) => tool.name)
    assert.ok(names.includes('create_task'), names.join(', '))
    const result = await mcp.callTool({ name: 'workspace', arguments: {} })
    assert.match(JSON.stringify(result.content), /Alice Member/)
    const scopes = (result.structuredContent as { scopes: string[] }).scopes
    assert.ok(!scopes.includes('token:manage'), scopes.join(' '))
  } finally {
    await mcp.close()
  }
})

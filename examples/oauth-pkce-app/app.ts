/**
 * A native app that acts for a person through OAuth 2.0 with PKCE, using openid-client for the
 * protocol and @workgraph/sdk for the API. It listens on a loopback redirect URI for the code.
 *
 *   WORKGRAPH_URL=http://127.0.0.1:8080 WORKGRAPH_CLIENT_ID=cli_… \
 *     node --conditions=workgraph:source examples/oauth-pkce-app/app.ts
 *
 * `npm start` prints a sample public client whose redirect URI is http://127.0.0.1:9999/callback.
 */
import { createServer } from 'node:http'
import { Workgraph } from '@workgraph/sdk'
import * as oauth from 'openid-client'

/** What the app needs to know, and how it shows the person the authorization page. */
export interface OAuthAppOptions {
  /** The Workgraph server; it is also the authorization server. */
  issuer: string
  clientId: string
  /** A loopback URI registered for the client, such as http://127.0.0.1:9999/callback. */
  redirectUri: string
  scope: string
  /** Opens the URL in the person's browser (a real app calls the system's browser here). */
  openBrowser: (url: string) => void | Promise<void>
}

/** What the app got: the projects it may open for the person, before and after a refresh. */
export interface OAuthAppResult {
  projects: string[]
  afterRefresh: string[]
}

// Resolves with the first request to the redirect URI's path, answering it with a short page.
function receiveCallback(redirectUri: URL): { callback: Promise<URL>; ready: Promise<void> } {
  let resolve: (url: URL) => void = () => {}
  const callback = new Promise<URL>((done) => {
    resolve = done
  })
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', redirectUri)
    if (url.pathname !== redirectUri.pathname) return void response.writeHead(404).end()
    response.writeHead(200, { 'content-type': 'text/plain' }).end('Done: you can close this tab.')
    server.close()
    resolve(url)
  })
  const ready = new Promise<void>((done) =>
    server.listen(Number(redirectUri.port), redirectUri.hostname, done),
  )
  return { callback, ready }
}

/** Runs the app once: authorization with PKCE, the person's projects, then a token refresh. */
export async function runOAuthApp(options: OAuthAppOptions): Promise<OAuthAppResult> {
  const issuer = new URL(options.issuer)
  // Plain http is allowed only for a server on this machine (development); never in production.
  const loopback =
    issuer.protocol === 'http:' && ['127.0.0.1', 'localhost'].includes(issuer.hostname)
  const config = await oauth.discovery(issuer, options.clientId, undefined, oauth.None(), {
    ...(loopback ? { execute: [oauth.allowInsecureRequests] } : {}),
    algorithm: 'oauth2',
  })

  const verifier = oauth.randomPKCECodeVerifier()
  const state = oauth.randomState()
  const authorizationUrl = oauth.buildAuthorizationUrl(config, {
    redirect_uri: options.redirectUri,
    scope: options.scope,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
  })
  const { callback, ready } = receiveCallback(new URL(options.redirectUri))
  await ready
  await options.openBrowser(authorizationUrl.href)
  // Typed as both grants answer, so the refreshed tokens can replace the first ones.
  let tokens: oauth.TokenEndpointResponse & oauth.TokenEndpointResponseHelpers =
    await oauth.authorizationCodeGrant(config, await callback, {
      pkceCodeVerifier: verifier,
      expectedState: state,
    })

  // The SDK asks for the token before every call, so it always uses the newest one.
  const wg = new Workgraph({ apiKey: () => tokens.access_token, baseUrl: options.issuer })
  const names = async () => (await wg.projects.list().toArray(100)).map((project) => project.name)
  const projects = await names()
  // Refresh tokens rotate: each refresh returns the next one, and the spent one stops working.
  if (!tokens.refresh_token) throw new Error('The server issued no refresh token')
  tokens = await oauth.refreshTokenGrant(config, tokens.refresh_token)
  return { projects, afterRefresh: await names() }
}

if (import.meta.main) {
  const clientId = process.env.WORKGRAPH_CLIENT_ID
  if (!clientId) throw new Error('Set WORKGRAPH_CLIENT_ID (npm start prints a sample app).')
  const result = await runOAuthApp({
    issuer: process.env.WORKGRAPH_URL ?? 'http://127.0.0.1:8080',
    clientId,
    redirectUri: process.env.WORKGRAPH_REDIRECT_URI ?? 'http://127.0.0.1:9999/callback',
    scope: 'project:read',
    openBrowser: (url) => console.log(`Open this page in your browser and approve:\n${url}`),
  })
  console.log(JSON.stringify(result, null, 2))
}

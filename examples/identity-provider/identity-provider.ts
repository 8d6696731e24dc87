import { generateKeyPairSync } from 'node:crypto'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import Provider, { type Configuration } from 'oidc-provider'

/** The one client of every such provider: Workgraph, and its secret (a fixed string: for trying). */
export const IDP_CLIENT_ID = 'workgraph'
export const IDP_CLIENT_SECRET = 'a test client secret of the identity provider'

/** An account of the test identity provider: what its ID token and userinfo say. */
export interface IdpAccount {
  readonly sub: string
  readonly email?: string
  readonly email_verified?: boolean
  readonly name?: string
}

/** The accounts every test provider starts with, by id (their `sub`). */
export const IDP_ACCOUNTS = {
  /** A verified email, as a real provider's employee directory gives. */
  verified: { sub: 'idp-verified', email: 'ivy@sso.example', email_verified: true, name: 'Ivy V' },
  /** An email the provider has not verified: anyone could have typed it. */
  unverified: { sub: 'idp-unverified', email: 'ivy@sso.example', email_verified: false },
  /** No email at all. */
  noEmail: { sub: 'idp-no-email', name: 'Nobody' },
} as const satisfies Record<string, IdpAccount>

/**
 * A small OpenID Provider (oidc-provider, as the server's own authorization server is) on a
 * loopback port: an identity provider to try single sign-on with (provider.ts) and the one the
 * SSO tests sign in through. Its one client is Workgraph, confidential, with the callback of
 * `redirectUri`; its interactions are a page that picks an account (or cancels), with no
 * password, and consent is given. Its secrets are fixed strings: it is for trying, never for
 * real people.
 */
export interface IdentityProvider {
  readonly issuer: string
  readonly clientId: string
  readonly clientSecret: string
  /** Its accounts by `sub`: tests add and change them. */
  readonly accounts: Map<string, IdpAccount>
  /** The settings of a Workgraph app that signs in through it. */
  env(extra?: NodeJS.ProcessEnv): NodeJS.ProcessEnv
  /** Builds the provider with its client's redirect URI: once the app's address is known. */
  register(redirectUri: string): void
  /**
   * Plays the browser at the provider: from an authorization URL, signs in as the account (or
   * cancels), and returns the address the provider sends the browser back to.
   */
  signIn(authorizationUrl: string, account: string | 'cancel'): Promise<string>
  close(): Promise<void>
}

/**
 * Starts the provider's server on 127.0.0.1 at a free port; `register` it before a sign-in.
 * `emailInIdToken` puts the email claims in the ID token too (oidc-provider's default leaves them
 * to the userinfo endpoint when an access token is issued).
 */
export async function startIdentityProvider(
  options: {
    emailInIdToken?: boolean
    /** Its port on 127.0.0.1; a free one when left out. */
    port?: number
    /** Its accounts; the tests' (IDP_ACCOUNTS) when left out. */
    accounts?: readonly IdpAccount[]
  } = {},
): Promise<IdentityProvider> {
  let provider: Provider | null = null
  const server: Server = createServer((request, response) => {
    if (!provider) return void response.writeHead(503).end()
    if (request.url?.startsWith('/interaction/'))
      return void interaction(provider, accounts, request, response).catch((error: unknown) => {
        response.writeHead(500, { 'content-type': 'text/plain' }).end(String(error))
      })
    provider.callback()(request, response)
  })
  await new Promise<void>((done, fail) => {
    server.once('error', fail)
    server.listen(options.port ?? 0, '127.0.0.1', done)
  })
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const accounts = new Map<string, IdpAccount>(
    (options.accounts ?? Object.values(IDP_ACCOUNTS)).map((account) => [account.sub, account]),
  )
  const clientId = IDP_CLIENT_ID
  const clientSecret = IDP_CLIENT_SECRET
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
  const jwk = privateKey.export({ format: 'jwk' })

  return {
    issuer,
    clientId,
    clientSecret,
    accounts,
    env: (extra = {}) => ({
      SSO_ISSUER: issuer,
      SSO_CLIENT_ID: clientId,
      SSO_CLIENT_SECRET: clientSecret,
      SSO_NAME: 'Test IdP',
      ...extra,
    }),
    register(redirectUri) {
      const configuration: Configuration = {
        clients: [
          {
            client_id: clientId,
            client_secret: clientSecret,
            redirect_uris: [redirectUri],
            response_types: ['code'],
            grant_types: ['authorization_code'],
            token_endpoint_auth_method: 'client_secret_basic',
          },
        ],
        jwks: { keys: [{ ...jwk, alg: 'RS256', use: 'sig', kid: 'idp-1' } as never] },
        cookies: { keys: ['identity provider cookie key of the tests'] },
        claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
        conformIdTokenClaims: !options.emailInIdToken,
        pkce: { required: () => true },
        features: { devInteractions: { enabled: false } },
        interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
        findAccount: async (_ctx, sub) => {
          const account = accounts.get(sub)
          return account ? { accountId: sub, claims: async () => ({ ...account }) } : undefined
        },
        // Consent is given: every sign-in grants what Workgraph asks for.
        loadExistingGrant: async (ctx) => {
          const accountId = ctx.oidc.session?.accountId
          const clientId = ctx.oidc.client?.clientId
          if (!accountId || !clientId) return undefined
          const grant = new ctx.oidc.provider.Grant({ accountId, clientId })
          grant.addOIDCScope('openid email profile')
          await grant.save()
          return grant
        },
      }
      provider = new Provider(issuer, configuration)
    },
    signIn: (authorizationUrl, account) => signInAtProvider(issuer, authorizationUrl, account),
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections()
        server.close(() => done())
      }),
  }
}

/**
 * Plays a browser at a provider started here (in this process or another): from an authorization
 * URL, signs in as the account (or cancels) on its page, and returns the address the provider
 * sends the browser back to.
 */
export async function signInAtProvider(
  issuer: string,
  authorizationUrl: string,
  account: string | 'cancel',
): Promise<string> {
  const cookies = new Map<string, string>()
  let response = await send(cookies, authorizationUrl)
  for (let step = 0; step < 10; step++) {
    const location = response.headers.get('location')
    if (location) {
      const next = new URL(location, issuer)
      if (next.origin !== issuer) return next.href
      response = await send(cookies, next.href)
      continue
    }
    const form = /action="(\/interaction\/[^"]+\/login)"/.exec(await response.text())
    if (!form?.[1]) throw new Error(`the provider answered ${response.status}, no sign-in form`)
    const action = account === 'cancel' ? form[1].replace(/login$/, 'cancel') : form[1]
    response = await send(cookies, new URL(action, issuer).href, { account })
  }
  throw new Error('the provider did not send the browser back in 10 steps')
}

// The browser's requests to the provider: its cookies by name, redirects left to the caller.
async function send(
  cookies: Map<string, string>,
  url: string,
  form?: Record<string, string>,
): Promise<Response> {
  const headers = new Headers()
  if (cookies.size > 0)
    headers.set('cookie', [...cookies].map(([name, value]) => `${name}=${value}`).join('; '))
  if (form) headers.set('content-type', 'application/x-www-form-urlencoded')
  const response = await fetch(url, {
    method: form ? 'POST' : 'GET',
    headers,
    redirect: 'manual',
    ...(form && { body: new URLSearchParams(form).toString() }),
  })
  for (const line of response.headers.getSetCookie()) {
    const [pair = ''] = line.split(';')
    const at = pair.indexOf('=')
    const value = pair.slice(at + 1)
    if (value === '' || /expires=Thu, 01 Jan 1970/i.test(line)) cookies.delete(pair.slice(0, at))
    else cookies.set(pair.slice(0, at), value)
  }
  return response
}

// The provider's sign-in page: pick an account (a person at the provider) or cancel.
async function interaction(
  provider: Provider,
  accounts: ReadonlyMap<string, IdpAccount>,
  request: IncomingMessage,
  response: ServerResponse,
) {
  const details = await provider.interactionDetails(request, response)
  const uid = details.uid
  if (request.method === 'GET') {
    const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Test IdP</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head><body><main>
<h1>Test IdP</h1><form method="post" action="/interaction/${uid}/login">
<label for="account">Account</label> <select id="account" name="account">
${[...accounts.values()].map((account) => `<option value="${htmlText(account.sub)}">${htmlText(account.email ?? account.sub)}</option>`).join('')}</select>
<button type="submit">Continue</button></form>
<form method="post" action="/interaction/${uid}/cancel"><button type="submit">Cancel</button></form>
</main></body></html>`
    return void response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page)
  }
  const chunks: Buffer[] = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'))
  const result = request.url?.endsWith('/cancel')
    ? { error: 'access_denied', error_description: 'The person cancelled.' }
    : { login: { accountId: form.get('account') ?? '' } }
  await provider.interactionFinished(request, response, result, { mergeWithLastSubmission: false })
}

// Account names are the example's own, but an email is text all the same.
function htmlText(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}

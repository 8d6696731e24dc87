import assert from 'node:assert/strict'
import { createHash, randomBytes } from 'node:crypto'
import { Browser } from './browser.ts'
import { type FlowOutcome, runBrowserFlow, type UserAnswers } from './oauth-flow.ts'

/** A PKCE pair: the verifier the app keeps and the S256 challenge it sends. */
export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url')
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') }
}

/** An authorization request URL by hand, for the cases a client library refuses to build. */
export function authorizationUrl(
  origin: string,
  params: Record<string, string | undefined>,
): string {
  const url = new URL('/oauth/authorize', origin)
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined) url.searchParams.set(name, value)
  }
  return url.href
}

/** A token endpoint answer. */
export interface TokenReply {
  status: number
  // biome-ignore lint/suspicious/noExplicitAny: token responses are checked field by field
  json: any
  headers: Headers
}

/** POSTs a form to an endpoint of the authorization server, optionally with Basic client auth. */
export async function postForm(
  origin: string,
  path: string,
  form: Record<string, string>,
  basic?: { id: string; secret: string },
): Promise<TokenReply> {
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' }
  if (basic) {
    const pair = `${encodeURIComponent(basic.id)}:${encodeURIComponent(basic.secret)}`
    headers.authorization = `Basic ${Buffer.from(pair).toString('base64')}`
  }
  const response = await fetch(new URL(path, origin), {
    method: 'POST',
    headers,
    body: new URLSearchParams(form).toString(),
  })
  const text = await response.text()
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    json = undefined
  }
  return { status: response.status, json, headers: response.headers }
}

/** What an authorization ended with: the code (or error) on the redirect, and the PKCE verifier. */
export interface Authorized {
  code: string | null
  verifier: string
  callback: URL | null
  outcome: FlowOutcome
}

/**
 * Runs a whole authorization in a (new or given) browser and returns the code. `params` are
 * extra or replaced authorization parameters.
 */
export async function authorize(
  origin: string,
  input: {
    clientId: string
    redirectUri: string
    scope: string
    user: UserAnswers
    browser?: Browser
    params?: Record<string, string | undefined>
  },
): Promise<Authorized> {
  const { verifier, challenge } = pkcePair()
  const url = authorizationUrl(origin, {
    response_type: 'code',
    client_id: input.clientId,
    redirect_uri: input.redirectUri,
    scope: input.scope,
    state: 'state-1',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    ...input.params,
  })
  const outcome = await runBrowserFlow(input.browser ?? new Browser(origin), url, input.user)
  const callback = outcome.callback ? new URL(outcome.callback) : null
  return { code: callback?.searchParams.get('code') ?? null, verifier, callback, outcome }
}

/** Exchanges a code at the token endpoint (public client unless `basic` is given). */
export function exchangeCode(
  origin: string,
  input: { clientId: string; redirectUri: string; code: string; verifier?: string },
  basic?: { id: string; secret: string },
): Promise<TokenReply> {
  const form: Record<string, string> = {
    grant_type: 'authorization_code',
    code: input.code,
    redirect_uri: input.redirectUri,
  }
  if (!basic) form.client_id = input.clientId
  if (input.verifier !== undefined) form.code_verifier = input.verifier
  return postForm(origin, '/oauth/token', form, basic)
}

/** Refreshes at the token endpoint as a public client, or as a confidential one with `basic`. */
export function refresh(
  origin: string,
  clientId: string,
  refreshToken: string,
  basic?: { id: string; secret: string },
): Promise<TokenReply> {
  const form = { grant_type: 'refresh_token', refresh_token: refreshToken }
  return postForm(origin, '/oauth/token', basic ? form : { ...form, client_id: clientId }, basic)
}

/**
 * A confidential app's tokens for a user: the whole authorization (sign-in and consent in a new or
 * given browser) and the code exchange. Fails the test if either does not succeed.
 */
export async function appTokens(
  origin: string,
  app: { id: string; secret: string },
  input: { redirectUri: string; scope: string; user: UserAnswers; browser?: Browser },
): Promise<{ tokens: TokenReply['json']; pagesSeen: string[] }> {
  const authorized = await authorize(origin, { clientId: app.id, ...input })
  assert.ok(authorized.code, authorized.outcome.page.body)
  const reply = await exchangeCode(
    origin,
    {
      clientId: app.id,
      redirectUri: input.redirectUri,
      code: authorized.code,
      verifier: authorized.verifier,
    },
    app,
  )
  assert.equal(reply.status, 200)
  return { tokens: reply.json, pagesSeen: authorized.outcome.pagesSeen }
}

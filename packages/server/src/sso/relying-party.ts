import * as oidc from 'openid-client'
import type { Config, SsoSettings } from '../config.ts'
import { isLoopbackHost } from '../lib/loopback.ts'
import { SsoError } from './sso-error.ts'
import { type SsoIdentity, verifiedIdentity } from './sso-identity.ts'

/** Where the identity provider sends the browser back: one address for every sign-in. */
export const SSO_CALLBACK_PATH = '/sign-in/sso/callback'

/** What the browser keeps between its visit to the provider and its return (web/sso-flow.ts). */
export interface AuthorizationChecks {
  readonly state: string
  readonly nonce: string
  /** The PKCE code verifier; the provider saw only its S256 challenge. */
  readonly verifier: string
}

// Its answers are awaited by a person looking at a page.
const TIMEOUT_SECONDS = 10
const SCOPE = 'openid email profile'

/**
 * This server as an OpenID Connect relying party of the one identity provider of SSO_ISSUER
 * (openid-client): the authorization code flow with PKCE (S256), `state` and `nonce`, the ID
 * token validated (signature from the provider's keys, issuer, audience, times, nonce). The
 * provider's metadata is discovered from its issuer at the first sign-in, and again after a
 * failure, so a provider that is down at start delays nothing but its own sign-ins.
 */
export class RelyingParty {
  readonly settings: SsoSettings
  readonly #redirectUri: string
  #discovered: Promise<oidc.Configuration> | null = null

  constructor(settings: SsoSettings, publicUrl: string) {
    this.settings = settings
    this.#redirectUri = `${publicUrl}${SSO_CALLBACK_PATH}`
  }

  /** The provider's authorization endpoint with a new request, and the checks of its return. */
  async authorizationRequest(): Promise<{ url: URL; checks: AuthorizationChecks }> {
    const config = await this.#configuration()
    const checks = {
      state: oidc.randomState(),
      nonce: oidc.randomNonce(),
      verifier: oidc.randomPKCECodeVerifier(),
    }
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: this.#redirectUri,
      scope: SCOPE,
      code_challenge: await oidc.calculatePKCECodeChallenge(checks.verifier),
      code_challenge_method: 'S256',
      state: checks.state,
      nonce: checks.nonce,
    })
    return { url, checks }
  }

  /**
   * Who the provider says signed in, from the query of its return to the callback: the code is
   * exchanged (with the PKCE verifier) only after `state` and `iss` match, the ID token must carry
   * the nonce, and the email must be one the provider verified. Throws `SsoError`.
   */
  async identity(query: string, checks: AuthorizationChecks): Promise<SsoIdentity> {
    const config = await this.#configuration()
    const current = new URL(`${this.#redirectUri}${query}`)
    try {
      const tokens = await oidc.authorizationCodeGrant(config, current, {
        pkceCodeVerifier: checks.verifier,
        expectedState: checks.state,
        expectedNonce: checks.nonce,
        idTokenExpected: true,
      })
      const claims = tokens.claims()
      if (!claims) throw new SsoError('invalid', 'The provider sent no ID token.')
      // Claims the ID token leaves out come from the userinfo endpoint, for the same subject.
      const userinfo =
        (claims.email === undefined || claims.email_verified === undefined) &&
        config.serverMetadata().userinfo_endpoint
          ? await oidc.fetchUserInfo(config, tokens.access_token, claims.sub)
          : undefined
      return verifiedIdentity(config.serverMetadata().issuer, claims, userinfo)
    } catch (error) {
      throw asSsoError(error)
    }
  }

  async #configuration(): Promise<oidc.Configuration> {
    if (!this.#discovered) {
      const { issuer, clientId, clientSecret } = this.settings
      const url = new URL(issuer)
      // Plain http is accepted only on loopback (config.ts): a provider on this machine.
      const insecure = url.protocol === 'http:' && isLoopbackHost(url.hostname)
      this.#discovered = oidc
        .discovery(url, clientId, clientSecret, undefined, {
          timeout: TIMEOUT_SECONDS,
          execute: insecure ? [oidc.allowInsecureRequests] : [],
        })
        .then((config) => {
          if (clientSecret !== undefined && prefersBasic(config)) {
            // The spec's default method for a registered secret, when the provider offers it.
            return new oidc.Configuration(
              config.serverMetadata(),
              clientId,
              clientSecret,
              oidc.ClientSecretBasic(clientSecret),
            )
          }
          return config
        })
        .then((config) => {
          if (insecure) oidc.allowInsecureRequests(config)
          config.timeout = TIMEOUT_SECONDS
          return config
        })
      this.#discovered.catch(() => {
        this.#discovered = null
      })
    }
    try {
      return await this.#discovered
    } catch (error) {
      throw asSsoError(error)
    }
  }
}

function prefersBasic(config: oidc.Configuration): boolean {
  const methods = config.serverMetadata().token_endpoint_auth_methods_supported
  return methods === undefined || methods.includes('client_secret_basic')
}

// What went wrong, in the terms of the pages: the library's errors are about the protocol.
function asSsoError(error: unknown): SsoError {
  if (error instanceof SsoError) return error
  if (error instanceof oidc.AuthorizationResponseError)
    return new SsoError('refused', 'The identity provider did not sign you in.', { cause: error })
  const code = (error as { code?: unknown })?.code
  // fetch's own failures are TypeErrors without a code; the library's argument errors have one.
  if ((error instanceof TypeError && code === undefined) || code === 'OAUTH_TIMEOUT')
    return new SsoError('unreachable', 'The identity provider did not answer.', { cause: error })
  return new SsoError('invalid', 'The answer of the identity provider failed its checks.', {
    cause: error,
  })
}

const parties = new WeakMap<SsoSettings, RelyingParty>()

/**
 * The relying party of an app's settings, or undefined without SSO_ISSUER: one per app, so the
 * dashboard's sign-in and the OAuth pages share one discovery of the provider.
 */
export function relyingPartyOf(config: Config): RelyingParty | undefined {
  const { sso } = config
  if (!sso) return undefined
  let party = parties.get(sso)
  if (!party) {
    party = new RelyingParty(sso, config.publicUrl)
    parties.set(sso, party)
  }
  return party
}

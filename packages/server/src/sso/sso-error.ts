/** Why a return from the provider signs no one in: each has its own page. */
export type SsoFailure =
  /** The provider's answer failed a check (state, nonce, signature, a spent code…). */
  | 'invalid'
  /** The person cancelled, or the provider refused them (`error=access_denied`). */
  | 'refused'
  /** No email, or one the provider does not say it verified. */
  | 'unverified_email'
  /** The provider did not answer (discovery, its token endpoint). */
  | 'unreachable'

/** A sign-in through the provider that must not go on, and why. */
export class SsoError extends Error {
  readonly failure: SsoFailure
  constructor(failure: SsoFailure, message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.failure = failure
  }
}

import { SsoError } from './sso-error.ts'

/** Who signed in at the identity provider, as far as this server trusts it. */
export interface SsoIdentity {
  /** The provider's issuer and its subject: the identity a person is linked to. */
  readonly issuer: string
  readonly subject: string
  /** The email the provider verified, in lower case. */
  readonly email: string
  /** The name the provider gives, if any: a new person's name. */
  readonly name: string | null
}

type Claims = Readonly<Record<string, unknown>> & { readonly sub: string }

// An address with something before and after one @ and a dot in its domain; 320 is SMTP's most.
const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/

/**
 * The identity of validated claims: the ID token's, with the userinfo response's in place of its
 * email claims when the ID token has neither (both are the same subject's: openid-client checks
 * it). Only `email_verified: true`, the boolean, counts as verified: an address the provider has
 * not verified could be anyone's, and would open that person's account here.
 */
export function verifiedIdentity(
  issuer: string,
  idToken: Claims,
  userinfo: Readonly<Record<string, unknown>> | undefined,
): SsoIdentity {
  const source = userinfo ?? idToken
  const email = source.email
  if (typeof email !== 'string' || email.length > 320 || !EMAIL.test(email))
    throw new SsoError('unverified_email', 'The identity provider gave no email address.')
  if (source.email_verified !== true)
    throw new SsoError('unverified_email', 'The identity provider has not verified the email.')
  const name = [idToken.name, userinfo?.name].find(
    (value): value is string => typeof value === 'string' && value.trim().length > 0,
  )
  return {
    issuer,
    subject: idToken.sub,
    email: email.toLowerCase(),
    name: name ? name.trim().slice(0, 200) : null,
  }
}

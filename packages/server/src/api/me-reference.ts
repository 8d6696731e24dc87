import type { Principal } from '../access/principal.ts'
import { ProblemError } from './problem-catalogue.ts'

/** The word a caller may give wherever a person id is asked for: the person the token acts as. */
export const ME = 'me'

/**
 * A person reference with `me` read as the caller's own id; any other value as given. A token
 * acting as an integration is no person, and says so as a 422 at `path`, rather than the 404 of
 * an id it could not have known.
 */
export function personOrMe<T extends string | null | undefined>(
  value: T,
  principal: Principal,
  path: string,
): T | string {
  if (value !== ME) return value
  if (principal.actorKind !== 'person') {
    const message = 'Only a token acting as a person may say `me`; this one acts as an integration.'
    throw new ProblemError('validation_failed', message, { errors: [{ path, message }] })
  }
  return principal.actorId
}

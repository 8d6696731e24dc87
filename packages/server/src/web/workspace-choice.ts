import { createHmac } from 'node:crypto'
import { sameToken } from './csrf.ts'

/** Who a choice of workspace signs in as. */
export interface ChosenPerson {
  readonly personId: string
  readonly workspaceId: string
}

// A choice proves a password check this recent, in the browser that made it.
const CHOICE_LIFETIME_MS = 10 * 60 * 1000

/**
 * The value of one workspace's radio button after a password matched several: the person, when,
 * and an HMAC binding both to this browser (`binding`: the pre-session cookie's value on the
 * dashboard, the interaction's id on the OAuth pages). Only the server can make one.
 */
export function choiceValue(key: Buffer, binding: string, person: ChosenPerson, now: Date) {
  const issued = String(now.getTime())
  return `${person.personId}.${person.workspaceId}.${issued}.${proof(key, binding, person, issued)}`
}

/** The person a submitted choice names, if it was made for this browser in the last 10 minutes. */
export function chosenPerson(
  key: Buffer,
  binding: string,
  value: unknown,
  now: Date,
): ChosenPerson | null {
  if (typeof value !== 'string') return null
  const [personId = '', workspaceId = '', issued = '', given = '', ...rest] = value.split('.')
  const age = now.getTime() - Number(issued)
  if (rest.length > 0 || !/^\d+$/.test(issued) || !(age >= 0 && age < CHOICE_LIFETIME_MS))
    return null
  const person = { personId, workspaceId }
  return sameToken(given, proof(key, binding, person, issued)) ? person : null
}

function proof(key: Buffer, binding: string, person: ChosenPerson, issued: string): string {
  return createHmac('sha256', key)
    .update(`choice\n${binding}\n${person.personId}\n${person.workspaceId}\n${issued}`)
    .digest('base64url')
}

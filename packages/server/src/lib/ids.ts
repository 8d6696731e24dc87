import { randomBytes } from 'node:crypto'
import { kindOfId } from '../catalogue/catalogue.ts'
import type { KindDescriptor } from '../catalogue/kind.ts'
import { type BuiltInKind, KINDS, OTHER_ID_PREFIXES } from '../catalogue/kinds.ts'
import { noteMinted } from './minted-values.ts'

/**
 * Type prefixes of every identifier the service hands out (docs/api.md, "Records"): those of the
 * resource kinds of the catalogue and of the other things that have ids.
 */
export const ID_PREFIX = {
  ...(Object.fromEntries(Object.values(KINDS).map((kind) => [kind.name, kind.prefix])) as {
    readonly [K in BuiltInKind]: (typeof KINDS)[K]['prefix']
  }),
  ...OTHER_ID_PREFIXES,
}

/** One of the identifier kinds above. */
export type IdKind = keyof typeof ID_PREFIX

/** A prefix such as `tsk`. */
export type IdPrefix = (typeof ID_PREFIX)[IdKind]

// Crockford's base32 without I, L, O and U, lowercase: unambiguous when read aloud or retyped.
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz'
const BODY_LENGTH = 26 // ceil(128 / 5)
const BODY_PATTERN = `[${ALPHABET}]{${BODY_LENGTH}}`
const ANY_ID = new RegExp(`^([a-z]{2,4})_${BODY_PATTERN}$`)
const KIND_BY_PREFIX = new Map<string, IdKind>(
  Object.entries(ID_PREFIX).map(([kind, prefix]) => [prefix, kind as IdKind]),
)

/**
 * A new identifier: the kind's prefix and 128 random bits. Never sequential or time-ordered, so
 * an id reveals nothing about how many other (possibly hidden) items exist or when they were made.
 */
export function newId(kind: IdKind): string {
  const id = idFromBytes(ID_PREFIX[kind], randomBytes(ID_BYTES))
  noteMinted(id)
  return id
}

/** How many bytes an id's body spells. */
export const ID_BYTES = 16

/** The id of a prefix and the 16 bytes its body spells: the inverse of `idBytes`. */
export function idFromBytes(prefix: string, bytes: Uint8Array): string {
  let value = BigInt(`0x${Buffer.from(bytes).toString('hex')}`)
  let body = ''
  for (let i = 0; i < BODY_LENGTH; i++) {
    body = ALPHABET.charAt(Number(value & 31n)) + body
    value >>= 5n
  }
  return `${prefix}_${body}`
}

/**
 * The prefix of an id and the 16 bytes its body spells, or null when it is not an id of a known
 * kind that `newId` could have made (so that `idFromBytes` gives back exactly the same string).
 */
export function idBytes(id: string): { prefix: IdPrefix; bytes: Buffer } | null {
  const match = ANY_ID.exec(id)
  const prefix = match?.[1]
  if (prefix === undefined || !KIND_BY_PREFIX.has(prefix)) return null
  let value = 0n
  for (const char of id.slice(prefix.length + 1))
    value = (value << 5n) | BigInt(ALPHABET.indexOf(char))
  if (value >> BigInt(ID_BYTES * 8) !== 0n) return null
  return {
    prefix: prefix as IdPrefix,
    bytes: Buffer.from(value.toString(16).padStart(ID_BYTES * 2, '0'), 'hex'),
  }
}

/** The kind an id names, or null when it is not a well-formed id of a known kind. */
export function idKind(id: string): IdKind | null {
  const match = ANY_ID.exec(id)
  return match?.[1] === undefined ? null : (KIND_BY_PREFIX.get(match[1]) ?? null)
}

/**
 * The catalogue's kind of a well-formed id: any kind defined, built in or not; undefined for a
 * malformed id or one of no kind. What routes on any resource decide scopes and answers by.
 */
export function catalogueKindOf(id: string): KindDescriptor | undefined {
  return ANY_ID.test(id) ? kindOfId(id) : undefined
}

/** True when `id` is a well-formed id of the given kind. */
export function isIdOf(kind: IdKind, id: string): boolean {
  return idKind(id) === kind
}

/** A JSON-schema pattern that matches ids of the given kinds. */
export function idPattern(...kinds: IdKind[]): string {
  return `^(${kinds.map((kind) => ID_PREFIX[kind]).join('|')})_${BODY_PATTERN}$`
}

import type { Scope } from './scopes.ts'

/** What every part of the service knows of a resource kind: plain data. */
export interface KindInfo {
  /** The kind's one name: the `type` of its records, hits and links, and the kind of its ids. */
  readonly name: string
  /** The prefix of its ids (`tsk` in `tsk_…`). */
  readonly prefix: string
  /** The scope that reads it. */
  readonly readScope: Scope
  /** Has a resource-index row, which decides who may open it and what search finds. */
  readonly indexed: boolean
  /**
   * Stands on its own in search hits, links and lists. False for the parts of another kind (a key
   * result, a check-in) and for the workspace itself.
   */
  readonly standalone: boolean
  /**
   * Found by search, and the field its searched body comes from (what a hit's citation names
   * when the title did not match). Absent: search does not return it.
   */
  readonly search?: { readonly bodyField: string }
  /** The OpenAPI tag of its own `/v1` routes, and what the tag says. */
  readonly tag?: { readonly name: string; readonly description: string }
  /** How a person names one of them, and several (the words of questions, page titles). */
  readonly noun: string
  readonly plural: string
  /** Other words that name the kind in a question (`okrs`). */
  readonly aliases?: readonly string[]
  /**
   * The verbs of its changes (`completed` is `task.completed`): `event` when the activity stream
   * shows it and webhooks also deliver it as an outbox event (docs/webhooks.md), `activity` when
   * only the stream shows it, `directory` when only webhooks deliver it: a change to the
   * workspace's directory that only those who administer it may hear of (an invitation).
   */
  readonly verbs?: { readonly [verb: string]: 'event' | 'activity' | 'directory' }
}

/**
 * The parts that consumers read from a kind: each consumer declares the part it iterates over by
 * merging it into this interface (`declare module '…/catalogue/kind.ts'`), so the catalogue at the
 * bottom of the house names no consumer, and a kind supplies its parts from its own folder.
 */
// biome-ignore lint/suspicious/noEmptyInterface: consumers merge their parts into it.
export interface KindParts {}

/** A resource kind: its data and whichever parts it has. */
export type KindDescriptor = KindInfo & Partial<KindParts>

/** A kind that has the named part. */
export type KindWith<P extends keyof KindParts> = KindInfo & Pick<KindParts, P>

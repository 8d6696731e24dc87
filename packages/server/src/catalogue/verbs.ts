import { KINDS } from './kinds.ts'

/*
 * The activity verbs and the outbox's event types, read from the kinds' `verbs`: a new kind's
 * verbs are part of its data, not a list kept elsewhere.
 */

type Kinds = typeof KINDS

// The verbs `<kind>.<verb>` of one kind whose value is `Which`.
type VerbsOf<K extends keyof Kinds, Which> = Kinds[K] extends { readonly verbs: infer V }
  ? { [Verb in keyof V & string]: V[Verb] extends Which ? `${K}.${Verb}` : never }[keyof V & string]
  : never

/** One activity verb, such as `task.completed`. */
export type ActivityVerb = { [K in keyof Kinds]: VerbsOf<K, 'event' | 'activity'> }[keyof Kinds]

/** One of the outbox's event types: the verbs that webhooks deliver. */
export type EventType = { [K in keyof Kinds]: VerbsOf<K, 'event' | 'directory'> }[keyof Kinds]

/** An event that webhooks deliver and the stream does not show (an invitation: `directory` verbs). */
export type DirectoryEventType = { [K in keyof Kinds]: VerbsOf<K, 'directory'> }[keyof Kinds]

// The verbs of every kind whose value is one of `which`, in the catalogue's order.
function verbsWhere(which: readonly string[]): string[] {
  return Object.entries(KINDS).flatMap(([name, kind]) =>
    'verbs' in kind
      ? Object.entries(kind.verbs)
          .filter(([, value]) => which.includes(value))
          .map(([verb]) => `${name}.${verb}`)
      : [],
  )
}

/** Every verb of the activity stream; `GET /v1/activity?verbs=` accepts exactly these. */
export const ACTIVITY_VERBS = verbsWhere(['event', 'activity']) as readonly ActivityVerb[]

/**
 * The verbs that are also events of the outbox, which webhooks deliver (docs/webhooks.md), in
 * the order the API lists them. Each is described by its kind's `webhookEvents` part.
 */
export const EVENT_TYPES = verbsWhere(['event', 'directory']) as readonly EventType[]

/** The events about people and teams: delivered and audited, not in the activity stream. */
export const DIRECTORY_EVENT_TYPES = verbsWhere(['directory']) as readonly DirectoryEventType[]

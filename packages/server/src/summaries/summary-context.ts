import type { Visibility } from '../access/visibility.ts'
import type { Db } from '../db/database.ts'
import type { UrlBuilder } from '../lib/resource-urls.ts'
import { quote, type SourceRef, type SummaryBuilder } from './summary-builder.ts'
import { type Named, nameReadable, visibleNames } from './summary-queries.ts'

/** What every summarizer works with. */
export interface SummaryContext {
  db: Db
  visibility: Visibility
  urls: UrlBuilder
  /** Today's date (UTC), for due dates and "overdue". */
  today: string
  readableKinds: readonly string[]
}

/** What a summarizer returns: the subject and what was said about it. */
export interface Summarized {
  type: string
  title: string
  builder: SummaryBuilder
}

/** The neighbours a summarizer may name: visible, and of types the token may read. */
export class Mentions {
  readonly #ctx: SummaryContext
  readonly #names: Map<string, Named>

  private constructor(ctx: SummaryContext, names: Map<string, Named>) {
    this.#ctx = ctx
    this.#names = names
  }

  /** Resolves names of the ids a summary may mention; the rest stay unmentionable. */
  static async load(
    ctx: SummaryContext,
    ids: Iterable<string | null | undefined>,
  ): Promise<Mentions> {
    return new Mentions(ctx, await visibleNames(ctx.db, ctx.visibility, ids))
  }

  /** The name of a visible neighbour of a readable type, or undefined. */
  name(id: string | null | undefined): string | undefined {
    return this.ref(id)?.title
  }

  /** A visible neighbour of a readable type as a source, or undefined for anything else. */
  ref(id: string | null | undefined): SourceRef | undefined {
    const named = id ? this.#names.get(id) : undefined
    if (!id || !named) return undefined
    if (!nameReadable(named.type, this.#ctx.readableKinds)) return undefined
    return source(this.#ctx, id, named.type, named.title, named.updated_at)
  }

  /** Whether the token may read a kind of neighbour at all. */
  readable(type: string): boolean {
    return this.#ctx.readableKinds.includes(type)
  }
}

/** A resource as a source: its id, type, title, page in the product and version. */
export function source(
  ctx: SummaryContext,
  id: string,
  type: string,
  title: string,
  version: Date | string,
): SourceRef {
  const updatedAt = new Date(version).toISOString()
  return { id, type, title, url: pageUrl(ctx, id, type), updated_at: updatedAt }
}

/** A resource's page in the product. */
export function pageUrl(ctx: SummaryContext, id: string, type: string): string {
  return type === 'workspace'
    ? ctx.urls.workspace(id).url
    : ctx.urls.resource(ctx.visibility.principal.workspaceId, type, id).url
}

/** The day of a timestamp, as statements give it. */
export function day(at: Date): string {
  return at.toISOString().slice(0, 10)
}

/** How a due date reads relative to today. */
export function dueWords(due: string | null, done: boolean, today: string): string {
  if (!due) return 'has no due date'
  if (done) return `was due ${due}`
  const days = Math.round((Date.parse(due) - Date.parse(today)) / 86_400_000)
  if (days < 0) return `was due ${due}, ${days === -1 ? '1 day' : `${-days} days`} ago (overdue)`
  if (days === 0) return `is due today (${due})`
  return `is due ${due}, in ${days === 1 ? '1 day' : `${days} days`}`
}

/**
 * What an activity entry did, in words: `completed task "Ship it"`, or only `completed task`
 * when the token may not read the subject's type (its title is then not named).
 */
export function activityWords(entry: { verb: string; subject_title: string | null }): string {
  const words = verbWords(entry.verb)
  return entry.subject_title === null ? words : `${words} ${quote(entry.subject_title)}`
}

/** How an activity verb reads: "completed task". */
export function verbWords(verb: string): string {
  const [type = '', action = ''] = verb.split('.')
  const noun = type === 'okr' ? 'objective' : type
  if (action === 'checkin') return 'checked in on objective'
  if (type === 'comment') return 'commented'
  if (action === 'member_added') return `added a member to ${noun}`
  if (action === 'member_removed') return `removed a member from ${noun}`
  return `${action.replace(/_/g, ' ')} ${noun}`.trim()
}

import type { WithResponse } from './response-meta.ts'

/** One page of a list, as the API sends it. */
export interface Page<T> {
  /** The page's items. */
  data: T[]
  /** Pass to the next call; null on the last page. */
  next_cursor: string | null
}

/** Fetches the page after `cursor` (the first page when undefined). */
export type PageLoader<T> = (cursor: string | undefined) => Promise<WithResponse<Page<T>>>

/**
 * A list that fetches its pages as they are read: `for await (const task of list)` walks every
 * item, `firstPage()` gets one page, `pages()` walks page by page. Nothing is sent until then.
 * Each page carries its `lastResponse`; the items in it do not.
 */
export class PagedList<T> implements AsyncIterable<T> {
  readonly #load: PageLoader<T>

  constructor(load: PageLoader<T>) {
    this.#load = load
  }

  /** The first page only, with the cursor of the next. */
  firstPage(): Promise<WithResponse<Page<T>>> {
    return this.#load(undefined)
  }

  /** Every page in order, starting at `cursor` (a `next_cursor` from earlier) when given. */
  async *pages(cursor?: string): AsyncGenerator<WithResponse<Page<T>>, void, undefined> {
    let next: string | null | undefined = cursor
    do {
      const page: WithResponse<Page<T>> = await this.#load(next ?? undefined)
      yield page
      next = page.next_cursor
    } while (next)
  }

  /** Every item of every page, in order. */
  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    for await (const page of this.pages()) yield* page.data
  }

  /** Every item, collected (stop early with `max`, default 10,000, so a huge list cannot run away). */
  async toArray(max = 10_000): Promise<T[]> {
    const items: T[] = []
    for await (const item of this) {
      if (items.length >= max) break
      items.push(item)
    }
    return items
  }
}

/**
 * A read that the gauges of one scrape share: a scrape collects every metric at once, so the
 * second gauge to ask gets the read the first started instead of querying again; the next scrape
 * reads afresh.
 */
export function sharedRead<T>(read: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | null = null
  return () => {
    pending ??= read().finally(() => {
      pending = null
    })
    return pending
  }
}

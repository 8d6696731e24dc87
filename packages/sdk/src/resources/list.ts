import { PagedList } from '../pages.ts'
import type { QueryValue, RequestOptions, Transport } from '../transport.ts'

/** A list endpoint as a PagedList: each page is one GET with the cursor of the one before. */
export function pagedList<T>(
  transport: Transport,
  path: string,
  params: object,
  options: RequestOptions | undefined,
): PagedList<T> {
  return new PagedList<T>((cursor) =>
    transport.request({
      method: 'GET',
      path,
      query: { ...(params as Record<string, QueryValue>), cursor },
      options,
    }),
  )
}

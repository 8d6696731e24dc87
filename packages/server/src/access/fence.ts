import { type RawBuilder, sql } from 'kysely'

/*
 * Credentials fenced to projects and time (docs/permissions.md, "Fenced credentials"). A fence is
 * a list of project ids, or null for none. A credential made with a fenced one never widens it:
 * it is fenced to the intersection, and ends no later than its maker.
 */

/** A fence: the project ids a credential opens, or null when it is not fenced. */
export type Fence = readonly string[] | null

/**
 * The fence of a credential made under `maker` asking for `requested`: the projects both allow,
 * sorted. Null only when neither is fenced. An empty result is a fence that opens nothing.
 */
export function narrowFence(maker: Fence, requested: Fence): Fence {
  if (maker === null) return requested === null ? null : [...new Set(requested)].sort()
  if (requested === null) return [...maker].sort()
  const allowed = new Set(maker)
  return [...new Set(requested)].filter((id) => allowed.has(id)).sort()
}

/** The earlier of two ends, null meaning never. */
export function earlierEnd(a: Date | null, b: Date | null): Date | null {
  if (a === null) return b
  if (b === null) return a
  return a.getTime() <= b.getTime() ? a : b
}

/** SQL: the fence in `column` narrowed to `fence`, as `narrowFence` does (never widened). */
export function narrowedFenceSql(column: string, fence: readonly string[]): RawBuilder<string[]> {
  const within = sql`${sql.val([...fence].sort())}::text[]`
  return sql<string[]>`case when ${sql.ref(column)} is null then ${within}
    else array(select id from unnest(${sql.ref(column)}) as fenced(id) where id = any(${within}) order by id) end`
}

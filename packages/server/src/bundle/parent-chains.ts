/** What following every item's parent pointer finds. */
export interface ParentChains {
  /** Distance from the root of each item's chain (0 for an item without a parent). */
  depth: Map<string, number>
  /** Each cycle once, as the keys on it in parent order. */
  cycles: string[][]
}

/**
 * Follows parent pointers (tasks, comment replies) in linear time without recursion, so a chain
 * of 100,000 subtasks neither overflows the stack nor takes quadratic time. A parent key that is
 * not among the items counts as a root (unknown references are reported elsewhere).
 */
export function followParents<T extends { key: string }>(
  items: readonly T[],
  parentOf: (item: T) => string | null | undefined,
): ParentChains {
  const parent = new Map<string, string | undefined>()
  for (const item of items) parent.set(item.key, parentOf(item) ?? undefined)
  const depth = new Map<string, number>()
  const cycles: string[][] = []
  for (const item of items) {
    const path: string[] = []
    const onPath = new Map<string, number>()
    let current: string | undefined = item.key
    while (
      current !== undefined &&
      parent.has(current) &&
      !depth.has(current) &&
      !onPath.has(current)
    ) {
      onPath.set(current, path.length)
      path.push(current)
      current = parent.get(current)
    }
    let base = current !== undefined && depth.has(current) ? (depth.get(current) as number) : -1
    if (current !== undefined && onPath.has(current)) {
      const cycle = path.splice(onPath.get(current) as number)
      cycles.push(cycle)
      for (const key of cycle) depth.set(key, 0)
      base = 0
    }
    for (let i = path.length - 1; i >= 0; i--) depth.set(path[i] as string, ++base)
  }
  return { depth, cycles }
}

/** The items ordered so that every parent comes before its children, otherwise as given. */
export function parentsFirst<T extends { key: string }>(
  items: readonly T[],
  parentOf: (item: T) => string | null | undefined,
): T[] {
  const { depth } = followParents(items, parentOf)
  return items
    .map((item, index) => ({ item, index, depth: depth.get(item.key) ?? 0 }))
    .sort((a, b) => a.depth - b.depth || a.index - b.index)
    .map((entry) => entry.item)
}

/**
 * How many edits apart two words are: insertions, deletions, substitutions, and swaps of two
 * neighbouring letters (the optimal string alignment distance), the common typing mistakes.
 * Stops early and returns `max + 1` once the words are sure to be further apart than `max`.
 */
export function editDistance(a: string, b: string, max: number): number {
  const s = [...a]
  const t = [...b]
  if (Math.abs(s.length - t.length) > max) return max + 1
  // Three rows of the dynamic-programming table: two back, one back, and the current one.
  let twoBack: number[] = []
  let previous = Array.from({ length: t.length + 1 }, (_, j) => j)
  for (let i = 1; i <= s.length; i++) {
    const current = [i]
    let best = i
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1
      let d = Math.min(
        (previous[j] as number) + 1,
        (current[j - 1] as number) + 1,
        (previous[j - 1] as number) + cost,
      )
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1])
        d = Math.min(d, (twoBack[j - 2] as number) + 1)
      current.push(d)
      best = Math.min(best, d)
    }
    if (best > max) return max + 1
    twoBack = previous
    previous = current
  }
  return Math.min(previous[t.length] as number, max + 1)
}

/**
 * How many edits a misspelled word may be from the word it means: one for words of up to five
 * letters, two for longer ones (the rule Elasticsearch calls `fuzziness: AUTO`).
 */
export function editsAllowed(word: string): number {
  return [...word].length <= 5 ? 1 : 2
}

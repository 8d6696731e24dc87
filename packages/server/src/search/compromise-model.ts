import { createRequire } from 'node:module'
import type Nlp from 'compromise/two'

/*
 * compromise (the build without named selections), loaded on first use rather than when the
 * server starts: its model is large, and most processes never read a question (bench/HISTORY.md
 * has its cost). Verbs (verb-lemma.ts) and fillers (filler-words.ts) read the same copy.
 */

let nlp: typeof Nlp | null = null

/** compromise's entry point, loaded once. */
export function compromise(): typeof Nlp {
  nlp ??= createRequire(import.meta.url)('compromise/two') as typeof Nlp
  return nlp
}

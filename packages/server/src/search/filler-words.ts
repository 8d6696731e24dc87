import { compromise } from './compromise-model.ts'

/*
 * Words that only colour a sentence: adverbs of degree and attitude ("actually", "really",
 * "basically", "just"). They sit between the words that carry a question ("did I actually finish
 * anything") and name nothing, so the question is read without them. An adverb is what
 * compromise's lexicon calls one, or a word of six letters or more ending in "-ly" that the
 * lexicon does not know (its suffix rules derive those): "weekly" and "early", which it knows as
 * adjectives, stay words. compromise is the library that reads verbs (verb-lemma.ts), loaded
 * once for both (compromise-model.ts).
 */

let lexicon: Record<string, string | string[]> | null = null

// compromise's lexicon, read once.
function words(): Record<string, string | string[]> {
  lexicon ??= (compromise().model() as { one: { lexicon: Record<string, string | string[]> } }).one
    .lexicon
  return lexicon
}

/** Whether a lower-case word is an adverb that only colours the sentence around it. */
export function isFiller(word: string): boolean {
  if (!/^[a-z]+$/.test(word)) return false
  const tag = words()[word]
  if (tag !== undefined) return tag === 'Adverb'
  return word.length >= 6 && word.endsWith('ly')
}

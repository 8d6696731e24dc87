import { compromise } from './compromise-model.ts'

/*
 * The base form (infinitive) of an English verb, read by compromise's own conjugation model
 * (docs/api.md, "Filters in the query"): "said" → "say", "finishes" → "finish", "shipping" →
 * "ship", "written" → "write". A word is tried as each form of a verb and kept as one only when
 * conjugating that base gives the word back, so "priya" and "rollout" stay themselves. Words are
 * read alone rather than tagged: compromise's tagger, given one word without a sentence, takes
 * "closed" and "finishing" for adjectives. compromise is loaded on the first word asked
 * (compromise-model.ts).
 */

/** A form of a verb: its base ("close"), past ("closed", "written"), present ("closes") or "-ing". */
export type VerbForm = 'base' | 'past' | 'present' | 'gerund'

type Tense = 'PastTense' | 'Participle' | 'PresentTense' | 'Gerund'
type VerbMethods = {
  toInfinitive(word: string, model: object, tense: Tense): string | undefined
  conjugate(base: string, model: object): Partial<Record<Tense, string>>
}

// The tenses a word is tried as, in order, and the form each is.
const TENSES: [Tense, VerbForm][] = [
  ['PastTense', 'past'],
  ['Participle', 'past'],
  ['PresentTense', 'present'],
  ['Gerund', 'gerund'],
]
const CACHE_SIZE = 1000
const cache = new Map<string, { base: string; form: VerbForm }>()
let conjugation: { verb: VerbMethods; model: object } | null = null

// compromise's conjugation methods and model, read once.
function conjugator(): { verb: VerbMethods; model: object } {
  if (!conjugation) {
    const nlp = compromise()
    const methods = nlp.methods() as { two: { transform: { verb: VerbMethods } } }
    conjugation = { verb: methods.two.transform.verb, model: nlp.model() }
  }
  return conjugation
}

/** The verb a lower-case word is a form of, and which form; any other word is its own base. */
export function readVerb(word: string): { base: string; form: VerbForm } {
  const known = cache.get(word)
  if (known) return known
  let read: { base: string; form: VerbForm } = { base: word, form: 'base' }
  if (/^[a-z]{2,}$/.test(word)) {
    const { verb, model } = conjugator()
    for (const [tense, form] of TENSES) {
      const base = verb.toInfinitive(word, model, tense)
      if (base && base !== word && verb.conjugate(base, model)[tense] === word) {
        read = { base, form }
        break
      }
    }
  }
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value as string)
  cache.set(word, read)
  return read
}

/** The base form of a verb ("said" → "say", "shipping" → "ship"); any other word, itself. */
export function baseVerb(word: string): string {
  return readVerb(word).base
}

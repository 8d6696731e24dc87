import { WEEKDAYS } from './question-vocabulary.ts'
import { editDistance } from './typo-distance.ts'

/*
 * Misspelled words of time ("tomorow", "wensday", "yesturday") read as the word meant, so that a
 * question's date is still a filter. Only these words: they are what a question says and a title
 * rarely does, so correcting them cannot turn a word the asker meant to find into a filter.
 */

// Words of five letters or more; shorter ones ("june", "may") are too near too many others.
// "march" and "april" are left out: "match" and "apron" are words to find.
const TIME_WORDS = [
  'today',
  'tomorrow',
  'yesterday',
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
  'sunday',
  'january',
  'february',
  'august',
  'september',
  'october',
  'november',
  'december',
  'overdue',
  'weekend',
  'fortnight',
]

/**
 * The time word `word` misspells, or `word` itself: a word of five letters or more, one edit from
 * a time word of up to seven letters, two from a longer one ("tommorow", "wensday"), and for a
 * weekday's name ending in "day" as it does.
 */
export function timeWordSpelling(word: string): string {
  if (word.length < 5 || !/^\p{L}+$/u.test(word) || TIME_WORDS.includes(word)) return word
  let best: { word: string; distance: number } | null = null
  for (const meant of TIME_WORDS) {
    // A day's name is mistyped in its stem ("wensday", "firday"): "sundae" is a word of its own.
    if (WEEKDAYS.includes(meant) && !word.endsWith('day')) continue
    const allowed = meant.length >= 8 ? 2 : 1
    const distance = editDistance(word, meant, allowed)
    if (distance <= allowed && (!best || distance < best.distance)) best = { word: meant, distance }
  }
  return best?.word ?? word
}

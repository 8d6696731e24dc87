/*
 * A word a speech recogniser writes for one that sounds the same: "do" for "due" ("stuff with no
 * do date", "what is do between now and Friday"), read where only "due" makes sense: before a
 * word of dates or deadlines, or after a word that "due" follows and "do" does not. "To do"
 * stays a status ("things to do today").
 */

// Words that follow "due" ("due date", "due by Friday", "due this week").
const AFTER_DUE =
  /^(date|dates|by|before|between|this|next|today|tomorrow|tonight|soon|on|in|within|until|till)$/
// Words that come before "due" and not before the verb "do" ("is due", "no due date").
const BEFORE_DUE = /^(is|are|was|were|be|been|no|its|it's|not|past|over|overdue|coming|come|comes)$/

/** `word` as meant, given the words around it (lower case): "due" for a "do" heard for it. */
export function heardWord(
  word: string,
  before: string | undefined,
  after: string | undefined,
): string {
  if (word !== 'do' || before === 'to') return word
  return AFTER_DUE.test(after ?? '') || BEFORE_DUE.test(before ?? '') ? 'due' : word
}

/*
 * Short forms people type in a chat box ("due fri", "this wk", "b4 the staff mtg"), read as the
 * words they stand for before anything else reads the question. Only forms that are no word of
 * their own: "sat", "wed" and "sun" are words, so they are left as written.
 */
const SHORT_FORMS: ReadonlyMap<string, string> = new Map([
  ['wk', 'week'],
  ['wks', 'weeks'],
  ['mon', 'monday'],
  ['tue', 'tuesday'],
  ['tues', 'tuesday'],
  ['thu', 'thursday'],
  ['thur', 'thursday'],
  ['thurs', 'thursday'],
  ['fri', 'friday'],
  ['tmrw', 'tomorrow'],
  ['tmr', 'tomorrow'],
  ['tmrow', 'tomorrow'],
  ['yday', 'yesterday'],
  ['b4', 'before'],
  ['abt', 'about'],
  ['r', 'are'],
  ['u', 'you'],
  ['ur', 'your'],
  ['pls', 'please'],
  ['plz', 'please'],
  ['xmas', 'christmas'],
  ['w', 'with'],
  ['w/', 'with'],
  ['w/o', 'without'],
  ['rn', 'now'],
])

/** The word a short form stands for ("wk" → "week"), or the word itself. */
export function longForm(word: string): string {
  return SHORT_FORMS.get(word) ?? word
}

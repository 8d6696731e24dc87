/*
 * Spelling variants of one query word that stemming does not join: British and American spellings
 * ("tokenise" and "tokenize" stem to different lexemes). Each variant is searched as an
 * alternative of the word, so either spelling finds both.
 */

// Pairs that no suffix rule can tell apart from ordinary words ("color" but not "motor").
const PAIRS: [string, string][] = [
  ['colour', 'color'],
  ['behaviour', 'behavior'],
  ['favourite', 'favorite'],
  ['favour', 'favor'],
  ['honour', 'honor'],
  ['labour', 'labor'],
  ['neighbour', 'neighbor'],
  ['flavour', 'flavor'],
  ['humour', 'humor'],
  ['centre', 'center'],
  ['metre', 'meter'],
  ['litre', 'liter'],
  ['fibre', 'fiber'],
  ['theatre', 'theater'],
  ['licence', 'license'],
  ['defence', 'defense'],
  ['offence', 'offense'],
  ['programme', 'program'],
  ['catalogue', 'catalog'],
  ['dialogue', 'dialog'],
  ['cancelled', 'canceled'],
  ['cancelling', 'canceling'],
  ['travelled', 'traveled'],
  ['modelling', 'modeling'],
  ['labelled', 'labeled'],
  ['labelling', 'labeling'],
  ['grey', 'gray'],
]
const PAIRED = new Map<string, string>()
for (const [british, american] of PAIRS) {
  PAIRED.set(british, american)
  PAIRED.set(american, british)
}

// -ise/-ize and -yse/-yze endings with their inflections; both directions.
const SUFFIXES: [RegExp, string][] = [
  [/^(.{3,})is(e|es|ed|ing|ation|ations|er|ers)$/, 'iz'],
  [/^(.{3,})iz(e|es|ed|ing|ation|ations|er|ers)$/, 'is'],
  [/^(.{3,})ys(e|es|ed|ing)$/, 'yz'],
  [/^(.{3,})yz(e|es|ed|ing)$/, 'ys'],
]

/** Other spellings of a lower-case word (never the word itself); empty for most words. */
export function spellingVariants(word: string): string[] {
  const variants = new Set<string>()
  const paired = PAIRED.get(word)
  if (paired) variants.add(paired)
  // A plural or verb form of a paired word: "colours", "centres", "licences".
  const stem = word.replace(/(s|es)$/, '')
  const pairedStem = stem !== word ? PAIRED.get(stem) : undefined
  if (pairedStem) variants.add(pairedStem + word.slice(stem.length))
  for (const [pattern, to] of SUFFIXES) {
    const match = pattern.exec(word)
    if (match) variants.add(`${match[1]}${to}${match[2]}`)
  }
  variants.delete(word)
  return [...variants]
}

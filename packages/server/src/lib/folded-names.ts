import { type RawBuilder, sql } from 'kysely'

/*
 * Names compared as people type them: without case or accents, so "ines" names "Inès Dubois"
 * and "jimenez" "Rosa Jiménez". The same table folds a name in SQL (translate(), which both
 * engines have without an extension) and the words typed, so the two always agree.
 */

const ACCENTED = 'àáâãäåāăąçćčďèéêëēėęěğìíîïīįıłñńňòóôõöøōőŕřśšşťùúûüūůűųýÿźżž'
const PLAIN = 'aaaaaaaaacccdeeeeeeeegiiiiiiilnnnoooooooorrssstuuuuuuuuyyzzz'
const PLAIN_OF = new Map([...ACCENTED].map((letter, i) => [letter, PLAIN[i] as string]))

/** `text` in lower case, its accented letters plain. */
export function foldName(text: string): string {
  return [...text.toLowerCase()].map((letter) => PLAIN_OF.get(letter) ?? letter).join('')
}

/** A text expression in lower case, its accented letters plain, as `foldName` does. */
export function foldedSql(expression: RawBuilder<unknown>): RawBuilder<string> {
  return sql<string>`translate(lower(${expression}), ${ACCENTED}, ${PLAIN})`
}

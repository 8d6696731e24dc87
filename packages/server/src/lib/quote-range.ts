import { shownCodePoints } from './safe-text.ts'

/** A stretch of a field's text, in Unicode code points: `[start, end)`. */
export interface CharRange {
  start: number
  end: number
}

const ELLIPSIS = '…'

/**
 * Where a quote lies in the text it was taken from (docs/api.md, "Citations"). Quotes are shown
 * on one line (every run of white space as one space) and may end in `…` where they were cut;
 * the range covers the original characters, white space as written, and the characters answers
 * never show (lib/safe-text.ts) wherever they stand in it. Positions count code points, not UTF-16
 * units, so they mean the same in every language. Null when the text lacks the quote.
 */
export function quoteRange(text: string, quote: string): CharRange | null {
  const wanted = quote.endsWith(ELLIPSIS) ? quote.slice(0, -ELLIPSIS.length) : quote
  const target = Array.from(wanted.replace(/\s+/g, ' ').trim())
  if (target.length === 0) return null
  const { flat, origin } = flatten(text)
  const at = indexOf(flat, target)
  if (at < 0) return null
  return { start: origin[at] as number, end: (origin[at + target.length - 1] as number) + 1 }
}

// The text as shown, on one line, and for each of its characters the index it came from.
function flatten(text: string): { flat: string[]; origin: number[] } {
  const { chars, kept } = shownCodePoints(text)
  const flat: string[] = []
  const origin: number[] = []
  let pendingSpace = -1
  for (const i of kept) {
    const char = chars[i] as string
    if (/\s/.test(char)) {
      if (flat.length > 0) pendingSpace = i
      continue
    }
    if (pendingSpace >= 0) {
      flat.push(' ')
      origin.push(pendingSpace)
      pendingSpace = -1
    }
    flat.push(char)
    origin.push(i)
  }
  return { flat, origin }
}

function indexOf(haystack: string[], needle: string[]): number {
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer
    return i
  }
  return -1
}

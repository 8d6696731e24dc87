/*
 * The one rule for text people wrote wherever the service composes an answer from it: MCP
 * answers (both faces), the Markdown of the tools, and the plain-text fields of search hits and
 * summaries (docs/mcp.md, "Text people wrote is data"; docs/api.md, "People's text in answers").
 *
 * 1. Hidden characters go: control characters (tab and line breaks are white space), every
 *    default-ignorable code point (zero-width spaces and joiners, bidirectional marks, embeddings,
 *    overrides and isolates, the word joiner and invisible operators, the soft hyphen, Hangul
 *    fillers, variation selectors, the Unicode tag characters U+E0000–E007F) and the interlinear
 *    annotation controls. Three uses that only shape visible text are kept: a zero-width joiner
 *    inside an emoji sequence (👩‍💻), a joiner or non-joiner between two letters of a script that
 *    shapes with them (Persian, Hindi…), and one emoji or text presentation selector after a
 *    character that has both presentations (❤️).
 * 2. Markdown cannot make a link, an image or HTML of it: `[`, `]`, `<` and the backtick are
 *    escaped with a backslash, and a backslash the person typed can never undo an escape. Escaping
 *    is idempotent, so text escaped once (a search hit) may pass through the rule again unchanged.
 */

// A code point that a reader would not see, or that reorders or hides what follows.
const HIDDEN = /^(?:[\p{Default_Ignorable_Code_Point}\u{FFF9}-\u{FFFB}]|(?![\t\n\r])\p{Cc})$/u
// Any candidate at all: most text has none and is returned as it is.
const ANY_HIDDEN = /[\p{Default_Ignorable_Code_Point}\u{FFF9}-\u{FFFB}\p{Cc}]/u
const ZWJ = '\u200D'
const ZWNJ = '\u200C'
const EMOJI = /^\p{Extended_Pictographic}$/u
// What may precede the joiner of an emoji sequence: a pictograph, a skin tone, a presentation selector.
const EMOJI_END = /^(?:[\p{Extended_Pictographic}\p{Emoji_Modifier}]|\u{FE0F})$/u
// Characters with an emoji and a text presentation, which a selector picks between.
const PRESENTABLE = /^\p{Emoji}$/u
// Scripts whose letters take a joiner or non-joiner to shape a word as it is spelt.
const JOINING =
  /^[\p{Script=Arabic}\p{Script=Syriac}\p{Script=Nko}\p{Script=Devanagari}\p{Script=Bengali}\p{Script=Gurmukhi}\p{Script=Gujarati}\p{Script=Oriya}\p{Script=Tamil}\p{Script=Telugu}\p{Script=Kannada}\p{Script=Malayalam}\p{Script=Sinhala}]$/u

// Whether the code point at `i` is shown: not hidden, or one of the uses that shape visible text.
function isShown(chars: readonly string[], i: number): boolean {
  const char = chars[i] as string
  if (!HIDDEN.test(char)) return true
  const before = chars[i - 1] ?? ''
  const after = chars[i + 1] ?? ''
  if (char === ZWJ && EMOJI_END.test(before) && EMOJI.test(after)) return true
  if ((char === ZWJ || char === ZWNJ) && JOINING.test(before) && JOINING.test(after)) return true
  return (char === '\uFE0F' || char === '\uFE0E') && PRESENTABLE.test(before)
}

/**
 * The indexes (in code points) of the characters of `text` that the rule keeps, in order: what a
 * citation's range counts when it locates shown text in the field as stored.
 */
export function shownCodePoints(text: string): { chars: string[]; kept: number[] } {
  const chars = Array.from(text)
  const hides = ANY_HIDDEN.test(text)
  const kept: number[] = []
  for (let i = 0; i < chars.length; i++) if (!hides || isShown(chars, i)) kept.push(i)
  return { chars, kept }
}

/** `text` without its hidden characters (rule 1); line breaks and tabs stay. */
export function stripHidden(text: string): string {
  if (!ANY_HIDDEN.test(text)) return text
  const { chars, kept } = shownCodePoints(text)
  return kept.map((i) => chars[i]).join('')
}

// What Markdown makes links, images, HTML or code spans of.
const MARKUP = new Set(['\\', '[', ']', '<', '`'])
// CommonMark's escapable characters: a backslash before one of them is already an escape.
const ESCAPABLE = /^[!-/:-@[-`{-~]$/

/**
 * `text` escaped so that Markdown shows it as written and makes no link, image, autolink, raw
 * HTML or code span of it (rule 2). A backslash that already escapes a punctuation character is
 * kept with it, so escaping twice changes nothing; one at the very end is doubled, so that it
 * cannot escape what an answer puts after it.
 */
export function escapeMarkdown(text: string): string {
  let out = ''
  for (let i = 0; i < text.length; i++) {
    const char = text[i] as string
    if (char === '\\') {
      const next = text[i + 1]
      if (next !== undefined && ESCAPABLE.test(next)) {
        out += char + next
        i++
      } else out += next === undefined ? '\\\\' : char
    } else out += MARKUP.has(char) ? `\\${char}` : char
  }
  return out
}

/** People's text on one line: hidden characters gone, every run of white space one space. */
export function plainLine(text: string): string {
  return stripHidden(text).replace(/\s+/g, ' ').trim()
}

/** People's text as every answer shows it: on one line, hidden characters gone, escaped. */
export function safeLine(text: string): string {
  return escapeMarkdown(plainLine(text))
}

/**
 * People's text whose line breaks may stay (a canvas summary in a search hit), or template words
 * with people's values in them (a unit, a session): hidden characters gone, escaped.
 */
export function safeText(text: string): string {
  return escapeMarkdown(stripHidden(text))
}

/**
 * Text already cut to one line (by `plainLine`) in quotation marks, escaped: a quotation mark
 * the person typed is shown straight, so the quotation cannot be closed from inside it.
 */
export function quoted(line: string): string {
  return `“${escapeMarkdown(line.replaceAll('“', '"').replaceAll('”', '"'))}”`
}

import { countTokens as count } from 'gpt-tokenizer/encoding/o200k_base'

/** The tokenizer that every `max_tokens` is measured with (docs/api.md, "Token budgets"). */
export const ENCODING = 'o200k_base'

// User text may contain strings such as "<|endoftext|>": count them as the text they are.
const AS_TEXT = { disallowedSpecial: new Set<string>() }

/** Tokens of a text in o200k_base. */
export function countTokens(text: string): number {
  return count(text, AS_TEXT)
}

const ELLIPSIS = '…'

/**
 * The longest prefix of `text` that fits in `maxTokens` and ends at a sentence boundary (or, when
 * not even one sentence fits, at a word boundary), marked with an ellipsis when something was cut.
 */
export function cutToTokens(text: string, maxTokens: number): { text: string; cut: boolean } {
  if (countTokens(text) <= maxTokens) return { text, cut: false }
  if (maxTokens <= 1) return { text: '', cut: true }
  const sentences = text.match(/[^.!?…\n]+(?:[.!?…]+|\n+|$)\s*/g) ?? [text]
  let kept = ''
  for (const sentence of sentences) {
    if (countTokens(kept + sentence + ELLIPSIS) > maxTokens) break
    kept += sentence
  }
  if (kept.trim() === '') {
    // Not one whole sentence fits: cut at a word boundary instead.
    for (const word of text.split(/(\s+)/)) {
      if (countTokens(kept + word + ELLIPSIS) > maxTokens) break
      kept += word
    }
  }
  return { text: `${kept.trimEnd()}${ELLIPSIS}`, cut: true }
}

/** What a budgeted response reports (docs/api.md, "Token budgets"). */
export interface BudgetReport {
  max_tokens: number
  used_tokens: number
  encoding: typeof ENCODING
}

/**
 * Whether `text` fits in `maxTokens`. A token covers at least one UTF-8 byte, so a text of no
 * more bytes than the budget fits without being tokenized.
 */
export function fitsInTokens(text: string, maxTokens: number): boolean {
  return Buffer.byteLength(text) <= maxTokens || countTokens(text) <= maxTokens
}

/**
 * Serializes a response whose `budget.used_tokens` must equal the tokens of the very string sent,
 * tokenizing it once. The tokenizer splits digits from everything around them (groups of up to
 * three, before any merge), so the count is the count with `used_tokens` at 0, less the "0",
 * plus the number's own tokens; the number is then found as a fixed point of that sum.
 */
export function serializeWithBudget<T extends { budget: BudgetReport }>(
  body: T,
  serialize: (body: T) => string,
): string {
  body.budget.used_tokens = 0
  const rest = countTokens(serialize(body)) - countTokens('0')
  let used = rest + 1
  for (let round = 0; round < 5; round++) {
    const next = rest + countTokens(String(used))
    if (next === used) break
    used = next
  }
  body.budget.used_tokens = used
  return serialize(body)
}

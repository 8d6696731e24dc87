import type { CallToolResult } from '@modelcontextprotocol/server'
import { ProblemError } from '../api/problem-catalogue.ts'
import { safeLine } from '../lib/safe-text.ts'
import { fitsInTokens } from '../lib/token-budget.ts'

/**
 * The default and the bounds of a tool's `max_tokens` (docs/mcp.md, "Budgets"). The minimum holds
 * one item and the cursor to the next in both faces of an answer, so paging always progresses,
 * and a search hit with what the question was read as.
 */
export const TOOL_BUDGET = { default: 2000, minimum: 500, maximum: 20_000 } as const

/** What a tool answers: Markdown for the model, and the same facts as typed data. */
export interface ToolAnswer {
  markdown: string
  structured: Record<string, unknown>
}

/** A successful tool result: the Markdown as text, the data as `structuredContent`. */
export function toolResult(answer: ToolAnswer): CallToolResult {
  return {
    content: [{ type: 'text', text: answer.markdown }],
    structuredContent: answer.structured,
  }
}

/**
 * A failed call as a tool result the model can read and act on: the problem's code and detail,
 * each invalid field, and when to retry; a failure of ours (5xx) names the request, as `/v1`'s
 * problems do. Failures are results, not protocol errors, so that an agent sees why (MCP's
 * convention for errors a model can correct). Anything but a ProblemError is rethrown: the tool's
 * runner answers it without its message (mcp-server.ts).
 */
export function toolError(error: unknown, requestId: string | null = null): CallToolResult {
  if (!(error instanceof ProblemError)) throw error
  const request = error.status >= 500 && requestId ? ` (request ${requestId})` : ''
  const lines = [`Error ${error.status} ${error.code}: ${safeLine(error.message)}${request}`]
  for (const field of error.extras.errors ?? []) {
    lines.push(`- ${safeLine(field.path)}: ${safeLine(field.message)}`)
    // An ambiguous name's candidates: the next call gives one of their ids.
    for (const candidate of field.candidates ?? [])
      lines.push(`  - “${safeLine(candidate.name)}” (${candidate.id})`)
  }
  if (error.extras.required_scopes) {
    lines.push(`Required scopes: ${error.extras.required_scopes.join(', ')}`)
  }
  const retry = error.extras.headers?.['retry-after']
  if (retry) lines.push(`Retry after ${retry} s.`)
  return { isError: true, content: [{ type: 'text', text: lines.join('\n') }] }
}

/** True when both faces of an answer fit the budget. */
export function fits(answer: ToolAnswer, maxTokens: number): boolean {
  return (
    fitsInTokens(answer.markdown, maxTokens) &&
    fitsInTokens(JSON.stringify(answer.structured), maxTokens)
  )
}

/**
 * The longest prefix of `items` whose answer fits `maxTokens`, rendered. `render(shown, cut)` is
 * told how many items are shown and whether the list was cut for the budget (so it can point at
 * the next page from the last item shown). An answer with no item at all is returned when even
 * the first does not fit; it says so.
 */
export function packItems<T>(
  items: readonly T[],
  maxTokens: number,
  render: (shown: readonly T[], cut: boolean) => ToolAnswer,
): ToolAnswer {
  let low = 0
  let high = items.length
  // The rendering found to fit is the one answered, never a second rendering of the same items:
  // a cursor is sealed afresh each time, and a fresh one may count a token or two more.
  let fitting: ToolAnswer | null = null
  // The largest n whose rendering fits: answers grow with n, so a binary search finds it.
  while (low < high) {
    const mid = Math.ceil((low + high) / 2)
    const answer = render(items.slice(0, mid), mid < items.length)
    if (fits(answer, maxTokens)) {
      low = mid
      fitting = answer
    } else high = mid - 1
  }
  return low > 0 && fitting ? fitting : render(items.slice(0, low), low < items.length)
}

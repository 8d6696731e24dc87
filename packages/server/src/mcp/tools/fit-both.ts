import { fits, type ToolAnswer } from '../tool-result.ts'

/**
 * An answer whose JSON face is packed by a `/v1` packer (search, summaries) and whose Markdown is
 * rendered from it: asks for the budget, and if the Markdown came out longer than the JSON's
 * budget, asks again for less until both faces fit. The packers never exceed what they are given,
 * so a few rounds suffice; their smallest budget is the REST minimum.
 */
export async function fitBoth(
  maxTokens: number,
  answerWithin: (budget: number) => Promise<ToolAnswer>,
): Promise<ToolAnswer> {
  let budget = maxTokens
  for (;;) {
    const answer = await answerWithin(budget)
    if (fits(answer, maxTokens) || budget <= REST_MINIMUM) return answer
    budget = Math.max(REST_MINIMUM, Math.floor(budget * 0.8))
  }
}

// The smallest max_tokens the REST search and summaries accept.
const REST_MINIMUM = 100

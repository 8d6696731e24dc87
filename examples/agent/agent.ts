/**
 * An agent's loop over Workgraph with @workgraph/sdk: ask a question in plain language, read a
 * compact cited summary of what it found, and record a follow-up task that is safe to retry.
 *
 *   WORKGRAPH_URL=http://127.0.0.1:8080 WORKGRAPH_API_KEY=wg_key_… node examples/agent/agent.ts
 */
import { Workgraph } from '@workgraph/sdk'

/** What the agent did, for its caller (a person, a test or another agent). */
export interface AgentReport {
  question: string
  found: { id: string; title: string; url: string }[]
  summary: string | null
  followUp: { id: string; title: string; url: string } | null
}

/** Runs the loop once: search, summarize the top hit's project, then write one follow-up task. */
export async function runAgent(options: {
  apiKey: string
  baseUrl: string
  question?: string
}): Promise<AgentReport> {
  const wg = new Workgraph({ apiKey: options.apiKey, baseUrl: options.baseUrl })
  const question = options.question ?? 'what is blocked?'
  // A small budget: the answer must fit next to the rest of the agent's context.
  const { results } = await wg.search({
    query: question,
    types: ['task'],
    limit: 5,
    max_tokens: 800,
  })
  const found = results.map((hit) => ({ id: hit.id, title: hit.title, url: hit.url }))
  const top = results[0]
  if (!top) return { question, found, summary: null, followUp: null }

  const task = await wg.resources.get(top.id)
  const projectId = task.type === 'task' ? task.project_id : null
  const summary = await wg.resources.summary(projectId ?? top.id, { max_tokens: 600 })

  // The key names the intent, so a rerun after a crash gets the same task back instead of a second
  // one. The body must then be the same on every run too: it cites the hit, not the live summary.
  const followUp = await wg.tasks.create(
    {
      title: `Follow up: ${top.title}`.slice(0, 500),
      description: `Found by an agent asking "${question}": ${top.url}`,
      ...(projectId ? { project_id: projectId } : {}),
    },
    { idempotencyKey: `agent-follow-up-${top.id}` },
  )
  return {
    question,
    found,
    summary: summary.text,
    followUp: { id: followUp.id, title: followUp.title, url: followUp.url },
  }
}

if (import.meta.main) {
  const apiKey = process.env.WORKGRAPH_API_KEY
  if (!apiKey) throw new Error('Set WORKGRAPH_API_KEY (npm start prints one).')
  const report = await runAgent({
    apiKey,
    baseUrl: process.env.WORKGRAPH_URL ?? 'http://127.0.0.1:8080',
    question: process.argv[2],
  })
  console.log(JSON.stringify(report, null, 2))
}

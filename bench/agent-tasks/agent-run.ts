import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { openableIds } from '../../packages/server/src/access/visibility.ts'
import { buildApp } from '../../packages/server/src/app.ts'
import { demoBundle } from '../../packages/server/src/bundle/demo/demo-bundle.ts'
import { countTokens } from '../../packages/server/src/lib/token-budget.ts'
import { DEMO_TODAY, openDemoWorld } from '../demo-world.ts'
import { DemoFacts } from './demo-facts.ts'
import { AGENT_TASKS, AGENT_TODAY, type AgentTask, type ToolReply } from './tasks.ts'

/** One task as the scripted agent did it. */
export interface TaskRun {
  name: string
  calls: number
  /** o200k tokens of what entered the model's context: each call's arguments and text answer. */
  tokens: number
  /** Required items and words, and those missing from the answers. */
  required: number
  missing: string[]
  error: string | null
}

const PORT = 47_311

/**
 * Runs every task of the set through the official MCP client against the demo workspace served
 * over HTTP (`/mcp`), counting calls and the tokens the model reads, and checks the answers for
 * what each task requires.
 */
export async function runAgentTasks(): Promise<TaskRun[]> {
  if (AGENT_TODAY !== DEMO_TODAY) throw new Error('the tasks are written for the demo world’s day')
  const origin = `http://127.0.0.1:${PORT}`
  const world = await openDemoWorld({ PUBLIC_URL: origin })
  const app = await buildApp(world.deps)
  await app.listen({ port: PORT, host: '127.0.0.1' })
  const facts = new DemoFacts(demoBundle({ today: AGENT_TODAY }), AGENT_TODAY)
  // A setup writes for real into this run's world, which every later task reads: such tasks
  // come last, so that every other task sees the demo's data as DemoFacts reads it.
  const firstSetup = AGENT_TASKS.findIndex((t) => t.setup)
  if (firstSetup >= 0 && AGENT_TASKS.slice(firstSetup).some((t) => !t.setup))
    throw new Error('tasks with a setup come after every task without one')
  const runs: TaskRun[] = []
  try {
    for (const task of AGENT_TASKS) runs.push(await runTask(task, origin, world, facts))
  } finally {
    await app.close()
    await world.close()
  }
  return runs
}

async function runTask(
  task: AgentTask,
  origin: string,
  world: Awaited<ReturnType<typeof openDemoWorld>>,
  facts: DemoFacts,
): Promise<TaskRun> {
  if (task.setup) {
    // What the world must hold before the question is asked, written as the owner; not counted.
    const owner = await connect(origin, world.tokens['ada-key'] as string)
    try {
      await task.setup(async (tool, args = {}) => {
        const result = (await owner.callTool({ name: tool, arguments: args })) as {
          isError?: boolean
          content: { text?: string }[]
          structuredContent?: unknown
        }
        const text = result.content.map((part) => part.text ?? '').join('\n')
        if (result.isError) throw new Error(`setup ${tool}: ${text}`)
        return { text, data: result.structuredContent ?? {} }
      }, world.ids)
    } catch (failure) {
      const error = (failure as Error).message.slice(0, 300)
      return { name: task.name, calls: 0, tokens: 0, required: 1, missing: ['setup'], error }
    } finally {
      await owner.close()
    }
  }
  const client = await connect(origin, world.tokens[task.as ?? 'ada-key'] as string)
  const read: { tool: string; text: string }[] = []
  let calls = 0
  let tokens = 0
  let error: string | null = null
  try {
    await task.strategy(async (tool, args = {}): Promise<ToolReply> => {
      calls++
      const result = (await client.callTool({ name: tool, arguments: args })) as {
        isError?: boolean
        content: { type: string; text?: string }[]
        structuredContent?: unknown
      }
      const text = result.content.map((part) => part.text ?? '').join('\n')
      tokens += countTokens(JSON.stringify({ tool, args })) + countTokens(text)
      read.push({ tool, text })
      if (result.isError) throw new Error(`${tool}: ${text}`)
      return { text, data: result.structuredContent ?? {} }
    })
  } catch (failure) {
    error = (failure as Error).message.slice(0, 300)
  } finally {
    await client.close()
  }
  const expected = task.expect(facts)
  // What the asker may not open is never expected of an answer (the owner is no member of every
  // private project): it must not be there at all.
  const asker = await world.callerOf(task.as === 'elena-read' ? 'elena' : 'ada')
  const open = await openableIds(
    world.deps.db,
    asker.visibility,
    (expected.items ?? []).map((key) => world.ids[key] as string),
  )
  expected.items = (expected.items ?? [])
    .filter((key) => open.has(world.ids[key] as string))
    .slice(0, expected.top)
  expected.words = [
    ...(expected.words ?? []),
    ...expected.items.flatMap((key) => expected.itemWords?.[key] ?? []),
  ]
  // Read as a person reads it: without the escapes that keep people's text from being Markdown.
  const answer = read
    .map((r) => r.text)
    .join('\n')
    .replace(/\\(?=[!-/:-@[-`{-~])/g, '')
  const missing: string[] = []
  for (const key of expected.items ?? []) {
    const id = world.ids[key] as string
    const title = titleOf(facts, key)
    if (!answer.includes(id)) missing.push(`cite ${key}`)
    if (title && !answer.includes(title)) missing.push(`name ${key}`)
  }
  for (const word of expected.words ?? [])
    if (!answer.toLowerCase().includes(word.toLowerCase())) missing.push(`say ${word}`)
  if (expected.rowTokens !== undefined) {
    // Every row of a list answer (`[n] “title” id · …`) within the bound.
    const rows = read
      .filter((r) => r.tool === 'list')
      .flatMap((r) => r.text.split('\n'))
      .filter((line) => /^\[\d+\] /.test(line))
    const largest = Math.max(0, ...rows.map((row) => countTokens(row)))
    if (rows.length === 0 || largest > expected.rowTokens)
      missing.push(`rows ≤ ${expected.rowTokens} tokens (${rows.length} rows, largest ${largest})`)
  }
  const required =
    (expected.items ?? []).length * 2 +
    (expected.words ?? []).length +
    (expected.rowTokens !== undefined ? 1 : 0)
  return { name: task.name, calls, tokens, required, missing, error }
}

// An MCP client of the served workspace, with this bearer token.
async function connect(origin: string, token: string): Promise<Client> {
  const client = new Client({ name: 'agent-tasks', version: '1.0.0' })
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${origin}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  )
  return client
}

// The title a correct answer names an item by.
function titleOf(facts: DemoFacts, key: string): string | undefined {
  const b = facts.bundle
  return (
    b.tasks?.find((t) => t.key === key)?.title ??
    b.projects?.find((p) => p.key === key)?.name ??
    b.okrs?.find((o) => o.key === key)?.title ??
    b.comments?.find((c) => c.key === key)?.body.slice(0, 30)
  )
}

/** The runs as Markdown: one row per task, then the medians and the worst. */
export function formatAgentTasks(runs: TaskRun[]): string {
  const median = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b)
    const mid = sorted.length >> 1
    return sorted.length % 2 ? sorted[mid] : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2
  }
  const lines = [
    '| task | calls | tokens | facts | missing |',
    '| --- | ---: | ---: | ---: | --- |',
    ...runs.map(
      (r) =>
        `| ${r.name} | ${r.calls} | ${r.tokens} | ${r.required - r.missing.length}/${r.required} | ${[...r.missing, ...(r.error ? [`error: ${r.error}`] : [])].join('; ')} |`,
    ),
  ]
  const complete = runs.filter((r) => r.missing.length === 0 && !r.error).length
  lines.push(
    '',
    `${runs.length} tasks: median ${median(runs.map((r) => r.calls))} calls and ${median(runs.map((r) => r.tokens))} tokens; at most ${Math.max(...runs.map((r) => r.calls))} calls; ${complete} with every required fact and citation.`,
  )
  return lines.join('\n')
}

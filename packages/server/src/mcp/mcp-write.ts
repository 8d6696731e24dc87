import type { CallToolResult } from '@modelcontextprotocol/server'
import { ProblemError } from '../api/problem-catalogue.ts'
import { auditActorOf } from '../audit/audit-actor.ts'
import { readableNames } from '../summaries/summary-queries.ts'
import type { DryRunAnswer } from '../writes/dry-run.ts'
import { idempotencyKeyOf, requestFingerprint } from '../writes/idempotency-key.ts'
import { runWrite } from '../writes/run-write.ts'
import type { Command } from '../writes/write-request.ts'
import { data } from './markdown.ts'
import type { McpSession } from './mcp-session.ts'
import { type ToolAnswer, toolError, toolResult } from './tool-result.ts'

/** What a write tool hands over: its name, its input without the key, and the command. */
export interface McpWriteRequest<Input> {
  tool: string
  input: Input
  idempotencyKey: string | undefined
  /** Run as a dry run: check and roll back, answering what the write would do. */
  dryRun?: boolean
  command: Command
  /** Renders the command's record (as stored, so a replay renders the same answer). */
  render(record: Record<string, unknown>, replayed: boolean): ToolAnswer | Promise<ToolAnswer>
}

/**
 * The MCP face of the write path: the same `runWrite` as REST, so a tool's write has the same
 * validation, activity, audit entry (marked `via: mcp`), outbox event and idempotency. The route
 * charged the call to the write budget (a dry run to the read budget) before it ran. Failures
 * come back as tool errors.
 */
export async function mcpWrite<Input>(
  session: McpSession,
  request: McpWriteRequest<Input>,
): Promise<CallToolResult> {
  const { deps, caller } = session
  const dryRun = request.dryRun === true
  try {
    const outcome = await runWrite(
      deps,
      {
        caller,
        actor: { ...auditActorOf(caller, session.origin), via: 'mcp' },
        idempotencyKey: idempotencyKeyOf(request.idempotencyKey),
        fingerprint: requestFingerprint(`mcp\n${request.tool}`, {}, request.input),
        operation: `mcp:${request.tool}`,
        dryRun,
        serialize: (result) => JSON.stringify(result.body),
      },
      request.command,
    )
    if (outcome.status >= 400) return toolError(storedProblem(outcome.body))
    if (dryRun) return toolResult(await dryRunAnswer(session, request, JSON.parse(outcome.body)))
    return toolResult(await request.render(JSON.parse(outcome.body), outcome.replayed))
  } catch (error) {
    return toolError(error)
  }
}

/**
 * A dry run as a tool answers it: the facts the tool would give (ids it would assign as null),
 * with the activity and events the write would record, and Markdown that says nothing happened
 * and names whom and what the result's ids are (as a write's confirmation does).
 */
async function dryRunAnswer<Input>(
  session: McpSession,
  request: McpWriteRequest<Input>,
  answer: DryRunAnswer,
): Promise<ToolAnswer> {
  const record = answer.result as Record<string, unknown>
  const { structured } = await request.render(record, false)
  const verbs = answer.activity.map((entry) => (entry as { verb: string }).verb)
  const events = answer.events.map((event) => event.type)
  const markdown = [
    `Dry run of ${request.tool}: it would succeed; nothing was written.`,
    `It would record ${verbs.length > 0 ? verbs.join(', ') : 'no activity'} and emit ${events.length > 0 ? events.join(', ') : 'no event'}.`,
    `Ids it would assign are null. Result: ${data(JSON.stringify(record), 2000)}`,
    ...(await linkNames(session, record)),
  ].join(' ')
  return {
    markdown,
    structured: { ...structured, dry_run: true, activity: answer.activity, events: answer.events },
  }
}

// The result's links by name, where the caller may see them and its token reads their kind:
// `assignee_id is “Amir Tehrani”.`, what an agent relays instead of an id.
async function linkNames(session: McpSession, record: Record<string, unknown>): Promise<string[]> {
  const links = Object.entries(record).filter(
    (entry): entry is [string, string] =>
      entry[0].endsWith('_id') && entry[0] !== 'workspace_id' && typeof entry[1] === 'string',
  )
  const names = await readableNames(
    session.deps.db,
    session.caller,
    links.map(([, id]) => id),
  )
  const named = links.flatMap(([field, id]) => {
    const name = names.get(id)
    return name ? [`${field} is ${data(name, 120)}`] : []
  })
  return named.length > 0 ? [`${named.join('; ')}.`] : []
}

// A business 4xx stored under the key, as a ProblemError again, so a replay reads like the first.
function storedProblem(body: string): ProblemError {
  const problem = JSON.parse(body) as {
    code: ConstructorParameters<typeof ProblemError>[0]
    detail: string
    errors?: { path: string; message: string }[]
  }
  return new ProblemError(problem.code, problem.detail, {
    ...(problem.errors ? { errors: problem.errors } : {}),
  })
}

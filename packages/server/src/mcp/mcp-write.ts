import type { CallToolResult } from '@modelcontextprotocol/server'
import { auditActorOf } from '../audit/audit-actor.ts'
import { ProblemError } from '../http/problem-catalogue.ts'
import { spendBudget } from '../http/rate-limit.ts'
import { idempotencyKeyOf, requestFingerprint } from '../writes/idempotency-key.ts'
import { type Command, runWrite } from '../writes/run-write.ts'
import type { McpSession } from './mcp-session.ts'
import { type ToolAnswer, toolError, toolResult } from './tool-result.ts'

/** What a write tool hands over: its name, its input without the key, and the command. */
export interface McpWriteRequest<Input> {
  tool: string
  input: Input
  idempotencyKey: string | undefined
  command: Command
  /** Renders the command's record (as stored, so a replay renders the same answer). */
  render(record: Record<string, unknown>, replayed: boolean): ToolAnswer
}

/**
 * The MCP face of the write path: the same `runWrite` as REST, so a tool's write has the same
 * validation, activity, audit entry (marked `via: mcp`), outbox event and idempotency; it spends
 * the token's write budget like a REST write. Failures come back as tool errors.
 */
export async function mcpWrite<Input>(
  session: McpSession,
  request: McpWriteRequest<Input>,
): Promise<CallToolResult> {
  const { deps, caller } = session
  try {
    const spent = await spendBudget(
      { store: deps.rateLimits, config: deps.config, clock: deps.clock },
      caller,
      'write',
    )
    if (spent.exceeded) throw spent.exceeded
    const outcome = await runWrite(
      deps,
      {
        caller,
        actor: { ...auditActorOf(caller, session.origin), via: 'mcp' },
        idempotencyKey: idempotencyKeyOf(request.idempotencyKey),
        fingerprint: requestFingerprint(`mcp\n${request.tool}`, {}, request.input),
        operation: `mcp:${request.tool}`,
        serialize: (result) => JSON.stringify(result.body),
      },
      request.command,
    )
    if (outcome.status >= 400) return toolError(storedProblem(outcome.body))
    return toolResult(request.render(JSON.parse(outcome.body), outcome.replayed))
  } catch (error) {
    return toolError(error)
  }
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

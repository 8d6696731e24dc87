import type { CallToolResult, ToolAnnotations } from '@modelcontextprotocol/server'
import type { TSchema } from 'typebox'
import type { Scope } from '../catalogue/scopes.ts'
import type { McpSession } from './mcp-session.ts'

/**
 * One MCP tool: what it is called and does, the scopes that show it, its argument and result
 * schemas (TypeBox, as JSON Schema), and its handler, a thin call into the service's own queries
 * or commands.
 */
export interface ToolDefinition<Args = Record<string, unknown>> {
  readonly name: string
  readonly title: string
  readonly description: string
  /** The tool is listed when the token holds any of these (the scopes whose data it shows). */
  readonly anyOfScopes: readonly Scope[]
  /** Listed for every token whatever its scopes (who am I), showing only what they allow. */
  readonly everyToken?: boolean
  readonly annotations: ToolAnnotations
  readonly input: TSchema
  readonly output: TSchema
  run(session: McpSession, args: Args): Promise<CallToolResult>
}

/*
 * Annotations say only what differs from the protocol's defaults (a tool may write, may destroy,
 * is not idempotent, reaches outside): a definition is read on every turn of a model, and a hint
 * the protocol calls meaningless for a read-only tool (destructive, idempotent) is left out.
 */

/** Annotations of a tool that only reads, inside the workspace. */
export const READ_ONLY: ToolAnnotations = { readOnlyHint: true, openWorldHint: false }

/**
 * Annotations of a tool that adds to the workspace. Not idempotent by itself (the default): a
 * retry is safe only with its `idempotency_key`.
 */
export const ADDITIVE: ToolAnnotations = { destructiveHint: false, openWorldHint: false }

/** Annotations of a write whose repetition changes nothing (setting a task's fields). */
export const IDEMPOTENT_WRITE: ToolAnnotations = { ...ADDITIVE, idempotentHint: true }

import { fromJsonSchema, type McpServer } from '@modelcontextprotocol/server'
import Type from 'typebox'
import type { McpSession } from './mcp-session.ts'

/*
 * Prompts a client offers as commands (docs/mcp.md, "Prompts"): each is the plan a competent
 * agent follows with this server's tools, so that "catch me up" takes two calls rather than a
 * search for where to start. A prompt is offered only when the token holds the scopes of the
 * tools it names.
 */

// Prompt arguments are strings (the protocol's rule); their meaning is checked when the tools run.
const Optional = (description: string) =>
  Type.Optional(Type.String({ maxLength: 100, description }))

const CatchMeUpArgs = Type.Object(
  {
    since: Optional('A date (YYYY-MM-DD) or time; default: a week ago.'),
    project_id: Optional('Only this project (prj_…).'),
  },
  { additionalProperties: false },
)

const StatusReportArgs = Type.Object(
  {
    project_id: Type.String({ minLength: 1, maxLength: 100, description: 'The project (prj_…).' }),
  },
  { additionalProperties: false },
)

/** A user message holding these lines. */
function ask(lines: string[]) {
  return {
    messages: [
      { role: 'user' as const, content: { type: 'text' as const, text: lines.join('\n') } },
    ],
  }
}

/** Registers the prompts the session's token may follow through. */
export function registerPrompts(
  server: McpServer,
  session: McpSession,
  validator: Parameters<typeof fromJsonSchema>[1],
): void {
  const scopes = session.caller.credential.scopes
  const today = session.deps.clock.now()
  if (scopes.has('activity:read'))
    server.registerPrompt(
      'catch_me_up',
      {
        title: 'Catch me up',
        description: 'What changed since a date, what is blocked or overdue, and what needs you.',
        argsSchema: fromJsonSchema<{ since?: string; project_id?: string }>(
          CatchMeUpArgs,
          validator,
        ),
      },
      (args: { since?: string; project_id?: string }) => {
        const since = args.since ?? new Date(today.getTime() - WEEK_MS).toISOString().slice(0, 10)
        const where = args.project_id ? ` in project ${args.project_id}` : ''
        const scope = args.project_id ? `, project_id "${args.project_id}"` : ''
        return ask([
          `Catch me up on what happened${where} since ${since} (today is ${day(today)}).`,
          `1. Call \`activity\` with since "${since}"${scope} (follow next_cursor while it gives more).`,
          '2. Call `list` with type "task", status ["blocked"] and then assignee_id "me"' +
            `${scope}, and type "okr"${scope} for their health.`,
          '3. `fetch` (up to 5 ids at once) only what needs explaining.',
          'Answer in short sections: what changed, what is blocked or overdue, OKRs at risk or ' +
            'off track, and what needs me. Cite each fact with its [n] link.',
        ])
      },
    )
  if (scopes.has('project:read'))
    server.registerPrompt(
      'status_report',
      {
        title: 'Status report',
        description:
          "A project's status: progress, blockers, due dates, OKR health, recent changes.",
        argsSchema: fromJsonSchema<{ project_id: string }>(StatusReportArgs, validator),
      },
      (args: { project_id: string }) =>
        ask([
          `Write a status report of project ${args.project_id} as of ${day(today)}.`,
          `1. \`fetch\` "${args.project_id}" for its cited summary.`,
          `2. \`list\` type "task" with project_id "${args.project_id}" and status ["blocked", "in_progress", "todo"], and type "okr" with the same project_id.`,
          'Report: overall state in one sentence; blockers and overdue tasks with their owners; ' +
            'what is due in the next two weeks; each OKR with its health; risks. Cite each fact ' +
            'with its [n] link, and say what you could not find.',
        ]),
    )
}

const WEEK_MS = 7 * 24 * 60 * 60 * 1000

// A date as YYYY-MM-DD.
function day(date: Date): string {
  return date.toISOString().slice(0, 10)
}

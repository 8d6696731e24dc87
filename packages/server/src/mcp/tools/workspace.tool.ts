import Type from 'typebox'
import { readScopeOf } from '../../access/scopes.ts'
import { ProblemError } from '../../api/problem-catalogue.ts'
import { ATTENTION_KINDS } from '../../attention/attention-focus.ts'
import { attentionFor, DEFAULT_ATTENTION_LIMIT } from '../../attention/run-attention.ts'
import type { Scope } from '../../catalogue/scopes.ts'
import { listPeople, listTeams } from '../../graph/people/people.queries.ts'
import { listProjects } from '../../graph/projects/projects.queries.ts'
import { findWorkspace } from '../../graph/workspace/workspace.queries.ts'
import { data, inline, link, sourceLine } from '../markdown.ts'
import type { McpSession } from '../mcp-session.ts'
import { summaryLines } from '../summary-markdown.ts'
import { READ_ONLY, type ToolDefinition } from '../tool-definition.ts'
import { packItems, TOOL_BUDGET, toolError, toolResult } from '../tool-result.ts'
import { MaxTokens, Ref } from './tool-schemas.ts'

const MAX_LISTED = 50

type WorkspaceArgs = { for?: string; since?: string; max_tokens?: number }

// The share of the budget that what needs attention may take: beside the caller's own lists of
// projects and teams, which fit in the rest; or, for another focus, with nothing to share with
// but the lines saying who the caller is.
const ATTENTION_SHARE = 0.6
const FOCUS_SHARE = 0.85

/**
 * `workspace`: who the token acts as, its scopes, the projects and teams it belongs to, and what
 * needs attention (`GET /v1/attention`), in one call: an agent's first call resolves "my" and
 * "our" and answers "what should I look at" without a round of lookups. With `for`, what needs
 * attention is a project's, a team's, a person's or the workspace's, and the lists are left out.
 * Any token may call it; each part beyond the token's own identity appears only with the scope
 * that reads it.
 */
export const workspaceTool: ToolDefinition<WorkspaceArgs> = {
  name: 'workspace',
  title: 'Briefing',
  description:
    'Who you are, today, your projects and teams, and what needs attention (overdue, blocked ' +
    'or due tasks; OKRs behind; others’ changes) for you, or a project, team or person.',
  anyOfScopes: ['workspace:read', 'people:read', 'project:read'],
  // Every token may ask who it is (like OAuth's userinfo), so no token is offered no tool at all.
  everyToken: true,
  annotations: READ_ONLY,
  input: Type.Object(
    {
      for: Type.Optional(
        Type.String({ maxLength: 100, description: 'me (default), workspace or an id.' }),
      ),
      since: Type.Optional(
        Type.String({ format: 'date-time', description: 'Changes since (default: a week).' }),
      ),
      max_tokens: MaxTokens,
    },
    { additionalProperties: false },
  ),
  output: Type.Object({
    me: Type.Object({ id: Type.String(), kind: Type.String() }),
    scopes: Type.Array(Type.String()),
    projects: Type.Array(Ref),
    teams: Type.Array(Ref),
    attention: Type.Optional(Type.Object({ text: Type.String() })),
  }),
  async run(session, args) {
    try {
      return await orientation(session, args)
    } catch (error) {
      return toolError(error)
    }
  },
}

// Who the caller is, its projects and teams (for itself), and what needs attention.
async function orientation(session: McpSession, args: WorkspaceArgs) {
  const { deps, caller } = session
  const { visibility, principal, credential } = caller
  const may = (scope: Scope) => credential.scopes.has(scope)
  const workspace = may('workspace:read')
    ? (await findWorkspace(deps.db, visibility)).workspace
    : null
  const [person] =
    may('people:read') && principal.actorKind === 'person'
      ? await listPeople(deps.db, visibility, { ids: [principal.actorId] }, null, 1)
      : []
  const maxTokens = args.max_tokens ?? TOOL_BUDGET.default
  const attention = await attentionIfReadable(session, args, maxTokens)
  // Someone else's focus: what needs attention there, without the caller's own lists.
  const own = args.for === undefined || args.for === 'me'
  const projects =
    own && may('project:read')
      ? await listProjects(deps.db, visibility, { ids: principal.projectIds }, null, MAX_LISTED)
      : []
  const teams =
    own && may('people:read')
      ? await listTeams(deps.db, visibility, { ids: principal.teamIds }, null, MAX_LISTED)
      : []
  const ws = principal.workspaceId
  // listProjects and listTeams return one row more than asked, to tell that more exist.
  const refs = [
    ...projects.slice(0, MAX_LISTED).map((p) => ({
      id: p.id,
      type: 'project',
      title: inline(p.name),
      url: deps.urls.resource(ws, 'project', p.id).url,
      status: p.status,
    })),
    ...teams.slice(0, MAX_LISTED).map((t) => ({
      id: t.id,
      type: 'team',
      title: inline(t.name),
      url: deps.urls.resource(ws, 'team', t.id).url,
    })),
  ]
  const today = deps.clock.now().toISOString().slice(0, 10)
  const me = {
    id: principal.actorId,
    kind: principal.actorKind,
    name: person ? inline(person.name) : null,
  }
  const scopes = [...credential.scopes].sort()
  const home = workspace
    ? {
        id: workspace.id,
        type: 'workspace',
        title: inline(workspace.name),
        url: deps.urls.workspace(ws).url,
      }
    : null
  const first = (attention?.body.sources.length ?? 0) + 1
  return toolResult(
    packItems(refs, maxTokens, (shown, cut) => {
      const lines = [
        home ? `# Workspace ${link(home.title, home.url)}` : '# Workspace',
        `You act as ${me.name ? `${me.name} ` : ''}(${me.kind} ${me.id}${principal.role ? `, ${principal.role}` : ''}). Today is ${today}.`,
        `Scopes: ${scopes.join(', ')}.`,
      ]
      if (attention) {
        const focus = attention.body.type === 'person' && attention.body.id === me.id
        const whose = focus
          ? ''
          : ` for ${data(attention.body.title, 120)} (${attention.body.type} ${attention.body.id})`
        lines.push('', `## Needs attention${whose}`, ...summaryLines(attention.body, false))
      }
      const shownProjects = shown.filter((r) => r.type === 'project')
      const shownTeams = shown.filter((r) => r.type === 'team')
      // Numbered after what needs attention cites, so each [n] names one source.
      if (shownProjects.length > 0) lines.push('', '## Your projects')
      for (const [i, p] of shownProjects.entries()) {
        const status = 'status' in p ? [String(p.status)] : []
        lines.push(sourceLine(first + i, p.title, p.url, [...status, p.id]))
      }
      if (shownTeams.length > 0) lines.push('', '## Your teams')
      for (const [i, t] of shownTeams.entries()) {
        lines.push(sourceLine(first + shownProjects.length + i, t.title, t.url, [t.id]))
      }
      if (cut) lines.push('', `(${refs.length - shown.length} more left out for max_tokens.)`)
      if (projects.length > MAX_LISTED || teams.length > MAX_LISTED) {
        lines.push('', `(Only the first ${MAX_LISTED} of each are shown; \`list\` pages them all.)`)
      }
      return {
        markdown: lines.join('\n'),
        structured: {
          workspace: home,
          me,
          scopes,
          today,
          projects: shownProjects.map(({ id, type, title, url }) => ({ id, type, title, url })),
          teams: shownTeams,
          ...(attention ? { attention: attention.body } : {}),
        },
      }
    }),
  )
}

// What needs attention for the focus asked (the caller by default), within a share of the
// budget; null when the token reads none of tasks, OKRs and activity.
async function attentionIfReadable(session: McpSession, args: WorkspaceArgs, maxTokens: number) {
  const { caller } = session
  if (!ATTENTION_KINDS.some((kind) => caller.readableKinds.includes(kind))) {
    if (args.for !== undefined || args.since !== undefined)
      throw new ProblemError('insufficient_scope', 'What needs attention needs a read scope.', {
        required_scopes: ATTENTION_KINDS.map(readScopeOf),
      })
    return null
  }
  return attentionFor(session.deps, caller, {
    for: args.for,
    since: args.since,
    limit: DEFAULT_ATTENTION_LIMIT,
    maxTokens: Math.floor(
      maxTokens * (args.for === undefined || args.for === 'me' ? ATTENTION_SHARE : FOCUS_SHARE),
    ),
  })
}

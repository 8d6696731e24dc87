import Type from 'typebox'
import { packAttention } from '../../attention/run-attention.ts'
import type { Scope } from '../../catalogue/scopes.ts'
import { listPeople, listTeams } from '../../graph/people/people.queries.ts'
import { listProjects } from '../../graph/projects/projects.queries.ts'
import { findWorkspace } from '../../graph/workspace/workspace.queries.ts'
import type { SummaryResult } from '../../summaries/run-summary.ts'
import type { CompactSummaryBody } from '../../summaries/summary.schemas.ts'
import { inline, link, sourceLine } from '../markdown.ts'
import type { McpSession } from '../mcp-session.ts'
import { READ_ONLY, type ToolDefinition } from '../tool-definition.ts'
import { fits, packItems, TOOL_BUDGET, toolError, toolResult } from '../tool-result.ts'
import { MaxTokens, Ref } from './tool-schemas.ts'
import {
  attentionBudget,
  attentionIfReadable,
  attentionLines,
  MIN_ATTENTION_TOKENS,
} from './workspace-attention.ts'

const MAX_LISTED = 50

type WorkspaceArgs = { for?: string; since?: string; max_tokens?: number }

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
    'You, today, your projects and teams, and what needs attention (overdue, blocked or due ' +
    'tasks; OKRs behind; others’ changes), yours or a project’s, team’s or person’s.',
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
  const answerWith = (attention: SummaryResult<CompactSummaryBody> | null) => {
    const first = (attention?.body.sources.length ?? 0) + 1
    return packItems(refs, maxTokens, (shown, cut) => {
      const lines = [
        home ? `# Workspace ${link(home.title, home.url)}` : '# Workspace',
        `You act as ${me.name ? `${me.name} ` : ''}(${me.kind} ${me.id}${principal.role ? `, ${principal.role}` : ''}). Today is ${today}.`,
        `Scopes: ${scopes.join(', ')}.`,
      ]
      if (attention) lines.push('', ...attentionLines(attention, me.id))
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
    })
  }
  // What needs attention gets a share of the budget; when the rest of the answer leaves it less
  // (ids and names vary in length), it is packed again into less until the whole answer fits.
  const attention = await attentionIfReadable(session, args)
  if (!attention) return toolResult(answerWith(null))
  let budget = attentionBudget(args, maxTokens)
  for (;;) {
    const answer = answerWith(packAttention(attention, budget, 'compact'))
    if (fits(answer, maxTokens) || budget <= MIN_ATTENTION_TOKENS) return toolResult(answer)
    budget = Math.max(MIN_ATTENTION_TOKENS, Math.floor(budget * 0.8))
  }
}

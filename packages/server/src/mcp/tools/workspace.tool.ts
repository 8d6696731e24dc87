import Type from 'typebox'
import type { Scope } from '../../catalogue/scopes.ts'
import { listPeople, listTeams } from '../../graph/people/people.queries.ts'
import { listProjects } from '../../graph/projects/projects.queries.ts'
import { findWorkspace } from '../../graph/workspace/workspace.queries.ts'
import { inline, link, sourceLine } from '../markdown.ts'
import { READ_ONLY, type ToolDefinition } from '../tool-definition.ts'
import { packItems, TOOL_BUDGET, toolResult } from '../tool-result.ts'
import { MaxTokens, Ref } from './tool-schemas.ts'

const MAX_LISTED = 50

/**
 * `workspace`: who the token acts as, its scopes, and the projects and teams it belongs to, in one
 * call, so an agent resolves "my" and "our" without a round of lookups. Any token may call it;
 * each part beyond the token's own identity appears only with the scope that reads it.
 */
export const workspaceTool: ToolDefinition<{ max_tokens?: number }> = {
  name: 'workspace',
  title: 'Who am I',
  description:
    'Who this token acts as, its scopes, today’s date, and the projects and teams it belongs to.',
  anyOfScopes: ['workspace:read', 'people:read', 'project:read'],
  // Every token may ask who it is (like OAuth's userinfo), so no token is offered no tool at all.
  everyToken: true,
  annotations: READ_ONLY,
  input: Type.Object({ max_tokens: MaxTokens }, { additionalProperties: false }),
  output: Type.Object({
    me: Type.Object({ id: Type.String(), kind: Type.String() }),
    scopes: Type.Array(Type.String()),
    projects: Type.Array(Ref),
    teams: Type.Array(Ref),
  }),
  async run(session, args) {
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
    const projects = may('project:read')
      ? await listProjects(deps.db, visibility, { ids: principal.projectIds }, null, MAX_LISTED)
      : []
    const teams = may('people:read')
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
    return toolResult(
      packItems(refs, args.max_tokens ?? TOOL_BUDGET.default, (shown, cut) => {
        const lines = [
          home ? `# Workspace ${link(home.title, home.url)}` : '# Workspace',
          `You act as ${me.name ? `${me.name} ` : ''}(${me.kind} ${me.id}${principal.role ? `, ${principal.role}` : ''}). Today is ${today}.`,
          `Scopes: ${scopes.join(', ')}.`,
        ]
        const shownProjects = shown.filter((r) => r.type === 'project')
        const shownTeams = shown.filter((r) => r.type === 'team')
        if (shownProjects.length > 0) lines.push('', '## Your projects')
        for (const [i, p] of shownProjects.entries()) {
          const status = 'status' in p ? [String(p.status)] : []
          lines.push(sourceLine(i + 1, p.title, p.url, [...status, p.id]))
        }
        if (shownTeams.length > 0) lines.push('', '## Your teams')
        for (const [i, t] of shownTeams.entries()) {
          lines.push(sourceLine(shownProjects.length + i + 1, t.title, t.url, [t.id]))
        }
        if (cut) lines.push('', `(${refs.length - shown.length} more left out for max_tokens.)`)
        if (projects.length > MAX_LISTED || teams.length > MAX_LISTED) {
          lines.push(
            '',
            `(Only the first ${MAX_LISTED} of each are shown; \`list\` pages them all.)`,
          )
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
          },
        }
      }),
    )
  },
}

import {
  type McpServer,
  ResourceNotFoundError,
  ResourceTemplate,
} from '@modelcontextprotocol/server'
import { listProjects } from '../graph/projects/projects.queries.ts'
import { idKind } from '../lib/ids.ts'
import type { McpSession } from './mcp-session.ts'
import { fetchTool } from './tools/fetch.tool.ts'

/** How many of the token's projects `resources/list` offers: the newest. */
const LISTED_PROJECTS = 50

/** The URI of a project as an MCP resource. */
export function projectUri(id: string): string {
  return `workgraph://projects/${id}`
}

/**
 * The projects the token may open as MCP resources (docs/mcp.md, "Resources"): a client can attach
 * one to a conversation without a tool call. Reading one gives what `fetch` gives for its id, so
 * a hidden or unknown project is the same not-found. Offered only with `project:read`.
 */
export function registerProjectResources(server: McpServer, session: McpSession): void {
  if (!session.caller.credential.scopes.has('project:read')) return
  const template = new ResourceTemplate(projectUri('{id}'), {
    list: async () => {
      const { deps, caller } = session
      const rows = await listProjects(deps.db, caller.visibility, {}, null, LISTED_PROJECTS)
      return {
        resources: rows.slice(0, LISTED_PROJECTS).map((row) => ({
          uri: projectUri(row.id),
          name: row.name,
          mimeType: 'text/markdown',
        })),
      }
    },
  })
  server.registerResource(
    'project',
    template,
    { title: 'Project', description: "A project's cited summary.", mimeType: 'text/markdown' },
    async (uri, variables) => {
      const id = String(variables.id ?? '')
      if (idKind(id) !== 'project') throw new ResourceNotFoundError(uri.href, 'No such project.')
      // A failure of ours reaches the client as the tools' do: without its message.
      const answer = await fetchTool.run(session, { id }).catch((error: unknown) => {
        session.log.error({ err: error, resource: uri.href }, 'resource read failed')
        throw new Error('The resource could not be read; try again.')
      })
      const text = answer.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n')
      // Hidden and unknown alike: the not-found of any id, with the problem `fetch` gives.
      if (answer.isError) throw new ResourceNotFoundError(uri.href, text)
      return { contents: [{ uri: uri.href, mimeType: 'text/markdown', text }] }
    },
  )
}

import type { ToolDefinition } from '../tool-definition.ts'
import { activityTool } from './activity.tool.ts'
import { changesTool } from './changes.tool.ts'
import { fetchTool } from './fetch.tool.ts'
import { listTool } from './list.tool.ts'
import { searchTool } from './search.tool.ts'
import { workspaceTool } from './workspace.tool.ts'
import { addCommentTool, createTaskTool, okrCheckinTool, updateTaskTool } from './write-tools.ts'

/** Every MCP tool, in the order `tools/list` shows them (docs/mcp.md, "Tools"). */
export const TOOLS: readonly ToolDefinition<never>[] = [
  searchTool,
  fetchTool,
  workspaceTool,
  listTool,
  activityTool,
  changesTool,
  createTaskTool,
  updateTaskTool,
  addCommentTool,
  okrCheckinTool,
]

/**
 * `npm run bench:agents`: the agent-task set (tasks.ts) through the official MCP client against
 * the demo workspace on PGlite: calls, tokens read and required facts per task.
 */
import { formatAgentTasks, runAgentTasks } from './agent-run.ts'

console.log(formatAgentTasks(await runAgentTasks()))

import { sql } from 'kysely'
import { findWorkspace } from '../../graph/workspace/workspace.queries.ts'
import { count, listing, named, SummaryBuilder } from '../../summaries/summary-builder.ts'
import { Mentions, type Summarized, type SummaryContext } from '../../summaries/summary-context.ts'

/** The workspace: its plan, the people and projects the caller can see, its active projects. */
export async function summarizeWorkspace(
  ctx: SummaryContext,
  id: string,
): Promise<Summarized | null> {
  if (id !== ctx.visibility.principal.workspaceId) return null
  const { workspace, memberCount } = await findWorkspace(ctx.db, ctx.visibility)
  const projects = await sql<{ status: string; n: number }>`
    select p.status, count(*)::int as n from projects p
    join resource_index r on r.workspace_id = p.workspace_id and r.id = p.id
    where p.workspace_id = ${id} and ${ctx.visibility.row('r')} group by p.status order by p.status`.execute(
    ctx.db,
  )
  const total = projects.rows.reduce((sum, row) => sum + row.n, 0)
  const active = projects.rows.find((row) => row.status === 'active')?.n ?? 0
  const readsProjects = ctx.readableKinds.includes('project')
  const recent = readsProjects
    ? await sql<{ id: string }>`
    select p.id from projects p
    join resource_index r on r.workspace_id = p.workspace_id and r.id = p.id
    where p.workspace_id = ${id} and p.status = 'active' and ${ctx.visibility.row('r')}
    order by p.updated_at desc, p.id limit 5`.execute(ctx.db)
    : { rows: [] }
  const mentions = await Mentions.load(
    ctx,
    recent.rows.map((row) => row.id),
  )
  const b = new SummaryBuilder()
  b.say`This workspace is on the ${workspace.plan} plan; you can see ${count(memberCount, 'person', 'people')} and open ${count(total, 'project')}, ${active} of them active.`
  const named5 = recent.rows.flatMap((row) => mentions.ref(row.id) ?? []).map(named)
  if (named5.length) b.say`Recently updated active projects: ${listing(named5)}.`
  b.fact('plan', workspace.plan)
    .fact('people', memberCount)
    .fact('projects', total)
    .fact('active_projects', active)
  return { type: 'workspace', title: workspace.name, builder: b }
}

import { sql } from 'kysely'
import { listTeams } from '../../graph/people/people.queries.ts'
import { count, listing, named, SummaryBuilder } from '../../summaries/summary-builder.ts'
import { Mentions, type Summarized, type SummaryContext } from '../../summaries/summary-context.ts'

const LISTED = 5
// Who is on a team is what a team's summary is asked first: its members are named up to this many.
const MEMBERS_LISTED = 12

/** A team: its members and the projects it belongs to, as far as the caller can see. */
export async function summarizeTeam(ctx: SummaryContext, id: string): Promise<Summarized | null> {
  const [team] = await listTeams(ctx.db, ctx.visibility, { ids: [id] }, null, 1)
  if (!team) return null
  const projects = await sql<{ project_id: string }>`
    select project_id from project_members where workspace_id = ${ctx.visibility.principal.workspaceId} and team_id = ${id} order by project_id`.execute(
    ctx.db,
  )
  const mentions = await Mentions.load(ctx, [
    ...team.member_ids,
    ...projects.rows.map((r) => r.project_id),
  ])
  const members = team.member_ids.flatMap((m) => mentions.ref(m) ?? [])
  const visible = projects.rows.flatMap((r) => mentions.ref(r.project_id) ?? [])
  const b = new SummaryBuilder()
  const others = (n: number, listed: number) => (n > listed ? ` and ${n - listed} more` : '')
  b.say`This team has ${count(members.length, 'member')}${members.length ? [': ', listing(members.slice(0, MEMBERS_LISTED).map(named)), others(members.length, MEMBERS_LISTED)] : ''}.`
  if (visible.length)
    b.say`It belongs to ${count(visible.length, 'project')}: ${listing(visible.slice(0, LISTED).map(named))}${others(visible.length, LISTED)}.`
  b.fact('members', members.length).fact('projects', visible.length)
  return { type: 'team', title: team.name, builder: b }
}

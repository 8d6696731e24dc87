import { sql } from 'kysely'
import { listPeople, listTeams } from '../graph/people/people.queries.ts'
import type { Summarized } from './summarize-task.ts'
import { count, listing, quote, SummaryBuilder } from './summary-builder.ts'
import { Mentions, type SummaryContext, source } from './summary-context.ts'
import { taskStats, tasksToMention } from './summary-queries.ts'

/** A person: role, teams, and the open and overdue tasks assigned to them that the caller can see. */
export async function summarizePerson(ctx: SummaryContext, id: string): Promise<Summarized | null> {
  const [person] = await listPeople(ctx.db, ctx.visibility, { ids: [id] }, null, 1)
  if (!person) return null
  const stats = ctx.readableTypes.includes('task')
    ? await taskStats(ctx.db, ctx.visibility, { assigneeId: id }, ctx.today)
    : null
  const pressing = stats
    ? (await tasksToMention(ctx.db, ctx.visibility, { assigneeId: id }, ctx.today, 3)).filter(
        (t) => t.status !== 'done',
      )
    : []
  const mentions = await Mentions.load(ctx, [...person.team_ids, ...pressing.map((t) => t.id)])
  const b = new SummaryBuilder()
  const teams = person.team_ids.filter((team) => mentions.name(team))
  b.say(
    `${quote(person.name)} is ${person.role === 'admin' || person.role === 'owner' ? 'an' : 'a'} ${person.role} of the workspace${teams.length ? ` and a member of ${listing(teams.map((t) => quote(mentions.name(t) ?? '')))}` : ''}.`,
    source(ctx, id, 'person', person.name, 'role'),
  )
  if (stats)
    b.say(
      `Assigned to them: ${count(stats.open, 'open task')} (${stats.overdue} overdue) and ${stats.done} done.`,
      source(ctx, id, 'person', person.name, 'assigned tasks'),
    )
  for (const task of pressing.filter((t) => mentions.name(t.id))) {
    b.say(
      `Task ${quote(task.title)} ${task.due && task.due < ctx.today ? `is overdue since ${task.due}` : task.due ? `is due ${task.due}` : 'is open'}.`,
      mentions.cite(task.id, task.due ? 'due' : 'status'),
    )
  }
  b.fact('role', person.role).fact('teams', teams.length)
  if (stats) b.fact('open_tasks', stats.open).fact('overdue_tasks', stats.overdue)
  for (const team of teams) mentions.link(b, 'team', team)
  for (const task of pressing) mentions.link(b, 'task', task.id)
  return { type: 'person', title: person.name, builder: b }
}

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
  const members = team.member_ids.filter((m) => mentions.name(m))
  const visibleProjects = projects.rows.map((r) => r.project_id).filter((p) => mentions.name(p))
  const b = new SummaryBuilder()
  b.say(
    `Team ${quote(team.name)} has ${count(members.length, 'member')}${members.length ? `: ${listing(members.slice(0, 10).map((m) => quote(mentions.name(m) ?? '')))}${members.length > 10 ? ' and others' : ''}` : ''}.`,
    source(ctx, id, 'team', team.name, 'members'),
  )
  if (visibleProjects.length)
    b.say(
      `It belongs to ${listing(visibleProjects.slice(0, 10).map((p) => quote(mentions.name(p) ?? '')))}.`,
      ...visibleProjects.slice(0, 10).map((p) => mentions.cite(p, 'members')),
    )
  b.fact('members', members.length).fact('projects', visibleProjects.length)
  for (const member of members) mentions.link(b, 'member', member)
  for (const project of visibleProjects) mentions.link(b, 'project', project)
  return { type: 'team', title: team.name, builder: b }
}

import { listPeople } from '../../graph/people/people.queries.ts'
import { count, listing, named, quote, SummaryBuilder } from '../../summaries/summary-builder.ts'
import { Mentions, type Summarized, type SummaryContext } from '../../summaries/summary-context.ts'
import { taskStats, tasksToMention } from '../../summaries/summary-queries.ts'
import { taskDetails } from '../../summaries/task-mention.ts'

/** A person: role and teams, then the tasks assigned to them that the caller can see. */
export async function summarizePerson(ctx: SummaryContext, id: string): Promise<Summarized | null> {
  const [person] = await listPeople(ctx.db, ctx.visibility, { ids: [id] }, null, 1)
  if (!person) return null
  const scope = { assigneeId: id }
  const stats = ctx.readableKinds.includes('task')
    ? await taskStats(ctx.db, ctx.visibility, scope, ctx.today)
    : null
  const pressing = stats
    ? (await tasksToMention(ctx.db, ctx.visibility, scope, ctx.today, 3)).filter(
        (t) => t.status !== 'done',
      )
    : []
  const mentions = await Mentions.load(ctx, [...person.team_ids, ...pressing.map((t) => t.id)])
  const b = new SummaryBuilder()
  const teams = person.team_ids.flatMap((team) => mentions.ref(team) ?? [])
  const article = person.role === 'admin' || person.role === 'owner' ? 'an' : 'a'
  b.say`${quote(person.name)} is ${article} ${person.role} of the workspace${teams.length ? [' and a member of ', listing(teams.map(named))] : ''}.`
  if (stats)
    b.say`Assigned to them: ${count(stats.open, 'open task')} (${stats.blocked} blocked, ${stats.overdue} overdue) and ${stats.done} done.`
  const items = pressing.flatMap((task) => {
    const ref = mentions.ref(task.id)
    if (!ref) return []
    // They are its assignee: the subject is not named again.
    return [[named(ref), taskDetails(task, mentions, ctx.today, { status: true, assignee: false })]]
  })
  if (items.length) b.say`Most pressing: ${listing(items)}.`
  b.fact('role', person.role).fact('teams', teams.length)
  if (stats)
    b.fact('open_tasks', stats.open)
      .fact('blocked_tasks', stats.blocked)
      .fact('overdue_tasks', stats.overdue)
      .fact('done_tasks', stats.done)
  return { type: 'person', title: person.name, builder: b }
}

import { html } from 'ghtml'
import type { AccessReason } from '../access/access-reason.ts'
import { kindNamed } from '../catalogue/catalogue.ts'
import type { AnyRecord } from '../graph/resources/load-record.ts'
import type { Neighbour } from './neighbour-names.ts'
import { linkTo } from './view-parts.ts'

type Names = ReadonlyMap<string, Neighbour>

/**
 * "Why you can see this": each reason of GET /v1/resources/:id/access as a plain sentence. A
 * project or team it comes through is a link when the viewer may open it, else named in words.
 */
export function whyYouCanSee(record: AnyRecord, reasons: readonly AccessReason[], names: Names) {
  if (reasons.length === 0) return ''
  const sentences = reasons.map((reason) => html`<li>!${sentence(record, reason, names)}</li>`)
  return html`<section class="why" aria-labelledby="why-heading">
<h2 id="why-heading">Why you can see this</h2>
<ul class="reasons">!${sentences}</ul></section>`
}

function sentence(record: AnyRecord, reason: AccessReason, names: Names): string {
  const via = (fallback: string) => linkTo(names, reason.via_id, fallback)
  const noun = nounOf(record)
  switch (reason.kind) {
    case 'workspace_member':
      return html`${capital(noun)} is open to every member of the workspace, and you are one.`
    case 'self':
      return 'This is you.'
    case 'project_member':
      return record.type === 'project'
        ? 'You are a member of this project.'
        : html`You are a member of the project !${via('it belongs to')}.`
    case 'team_member':
      if (record.type === 'team') return 'You belong to this team.'
      if (record.type === 'canvas' && record.visibility === 'private')
        return html`It is shared with your team !${via('(a team)')}.`
      return html`You belong to the team !${via('(a team)')}, which is a member of ${
        record.type === 'project' ? 'this project' : 'its project'
      }.`
    case 'collaborator':
      return html`You both belong to the project !${via('(a project)')}.`
    case 'shared_with':
      return `It is shared with you.`
    case 'owner':
      return `You own ${noun}.`
    case 'creator':
      return 'You created this task.'
    case 'assignee':
      return 'This task is assigned to you.'
    case 'objective_team':
      return html`You belong to the team !${via('(a team)')}, which owns this objective.`
    case 'parent':
      return html`It is part of !${via('a resource')}, which you can see.`
  }
}

// The resource as a sentence names it: its kind's noun (an objective, a task).
function nounOf(record: AnyRecord): string {
  const kind = kindNamed(record.type)
  return kind ? `this ${kind.noun}` : 'it'
}

function capital(text: string): string {
  return `${text[0]?.toUpperCase()}${text.slice(1)}`
}

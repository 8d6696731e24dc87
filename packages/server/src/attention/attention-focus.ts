import type { Caller } from '../access/caller.ts'
import { canOpen } from '../access/visibility.ts'
import { notFound, ProblemError } from '../api/problem-catalogue.ts'
import type { Db } from '../db/database.ts'
import { idKind } from '../lib/ids.ts'

/** Whose attention: a person (`me` is the caller), a project, a team, or the whole workspace. */
export type AttentionFocus =
  | { type: 'person'; id: string }
  | { type: 'project'; id: string }
  | { type: 'team'; id: string }
  | { type: 'workspace'; id: string }

/** The kinds an answer of what needs attention reads: it needs a read scope of one of them. */
export const ATTENTION_KINDS = ['task', 'okr', 'activity'] as const

/** The kinds of id `for` takes, besides `me` and `workspace`. */
const FOCUS_KINDS = ['person', 'project', 'team'] as const

/**
 * What `for` names: `me` (the caller, who must be a person), `workspace`, or the id of a person,
 * project or team the caller may open, whose kind its token may read. Anything hidden or unknown
 * is the API's one 404; a value of no such form is a 422 naming `pointer`. Without a value, a
 * person's token means `me` and an integration's the workspace.
 */
export async function attentionFocus(
  db: Db,
  caller: Caller,
  value: string | undefined,
  pointer: string,
): Promise<AttentionFocus> {
  const { principal } = caller
  const mine = principal.actorKind === 'person'
  if (value === 'workspace' || (value === undefined && !mine))
    return { type: 'workspace', id: principal.workspaceId }
  if (value === 'me' || value === undefined) {
    if (!mine) throw invalid(pointer, 'means the person a token acts for; this one is not one')
    return { type: 'person', id: principal.actorId }
  }
  const kind = idKind(value)
  const type = FOCUS_KINDS.find((name) => name === kind)
  if (!type) throw invalid(pointer, 'must be me, workspace, or a person, project or team id')
  if (!caller.readableKinds.includes(type) || !(await canOpen(db, caller.visibility, value)))
    throw notFound(pointer)
  return { type, id: value }
}

function invalid(pointer: string, message: string): ProblemError {
  return new ProblemError('validation_failed', 'Whose attention cannot be read from `for`.', {
    errors: [{ path: pointer, message }],
  })
}

import type { Static } from 'typebox'
import type { Caller } from '../access/caller.ts'
import { readScopeOf } from '../access/scopes.ts'
import { namedReference } from '../api/named-reference.ts'
import { bindingOf, readCursor } from '../api/paging.ts'
import { ProblemError } from '../api/problem-catalogue.ts'
import type { AppDeps } from '../app-deps.ts'
import type { Db } from '../db/database.ts'
import { utcDay } from '../lib/overdue.ts'
import { safeLine } from '../lib/safe-text.ts'
import { FIRST_DAY, isStorableDay, isStorableTime, LAST_DAY } from '../lib/storable-dates.ts'
import { packSearch } from './pack-search.ts'
import { parseQuestion } from './question-parser.ts'
import { isKindWord, isTaskNoun, OPEN_STATUSES } from './question-vocabulary.ts'
import { relaxFilters } from './relaxed-filters.ts'
import { presentHit } from './search.present.ts'
import { type SearchRow, searchIndex } from './search.queries.ts'
import {
  type AppliedFilters,
  type Interpreted,
  SEARCH_KINDS,
  type SearchBody,
  type SearchKind,
  type SearchResponse,
} from './search.schemas.ts'
import type { SearchFilterValues } from './search-filter-values.ts'
import {
  kindsFor,
  type ResolvedFilters,
  resolveBareName,
  resolveFilters,
  resolvePersonName,
  resolveProjectName,
  resolveTeamName,
  resolveTitled,
} from './search-filters.ts'
import { normalizeQuery } from './search-query.ts'

/** Who searches: what `runSearch` needs of a caller, whatever its transport. */
export type SearchCaller = Pick<Caller, 'visibility' | 'credential' | 'readableKinds'>

/** A search request, as `POST /v1/search` takes it. */
export type SearchRequest = Static<typeof SearchBody>

/** A search answer, as `POST /v1/search` sends it. */
export type SearchAnswer = Static<typeof SearchResponse>

// Cursors of every transport are bound to this route, so a cursor works wherever its token does.
const ROUTE = '/v1/search'

/**
 * Runs a search for `caller` without any transport: reads the question, resolves its filters
 * against what the caller may open, ranks, and packs the answer into `max_tokens`. Returns the
 * response body as the very JSON text whose tokens were counted (parse it for a `SearchAnswer`).
 * Throws ProblemError: `insufficient_scope` (403) for kinds the token may not read,
 * `validation_failed` (422) for impossible dates or too small a budget, `invalid_request` (400)
 * for a cursor of another query.
 */
export async function runSearch(
  deps: AppDeps,
  caller: SearchCaller,
  body: SearchRequest,
): Promise<string> {
  const { visibility, credential, readableKinds } = caller
  const readable = SEARCH_KINDS.filter((type) => credential.scopes.has(readScopeOf(type)))
  const asked: SearchKind[] = body.types ?? readable
  const forbidden = asked.filter((type) => !readable.includes(type))
  if (forbidden.length > 0) {
    const required = forbidden.map(readScopeOf)
    throw new ProblemError(
      'insufficient_scope',
      `This token may not read ${forbidden.join(', ')}: searching them needs ${required.join(', ')}.`,
      { required_scopes: required },
    )
  }
  const given = await givenNames(deps.db, caller, checkedFilters(body.filters))
  const now = deps.clock.now()
  const question = parseQuestion(normalizeQuery(body.query), now)
  // A field of `filters` replaces the same filter read from the query.
  const values: SearchFilterValues = { ...question.filters, ...given }
  // With filters in the request, "tasks" says what to list, as it does next to a filter word.
  let terms =
    Object.keys(given).length > 0
      ? question.terms.filter((term) => !isTaskNoun(term.text))
      : question.terms
  // A person named in the question, or by name in `assignee`, is the assignee filter (the
  // creator, for what they said or made) when the caller may see them and the token reads people.
  const role = question.person?.role === 'creator' ? 'created_by' : 'assignee'
  const person = caller.readableKinds.includes('person')
    ? await namedFilter(
        values[role],
        (value) => value === 'me' || value === 'none' || value.startsWith('usr_'),
        question.person?.words,
        (words) => resolvePersonName(deps.db, visibility, words),
      )
    : null
  // No phrase named anyone, but the question asks about someone's work: a word that is exactly
  // one person's first or last name is that person ("jonas tasks which are late").
  const bare =
    !person &&
    question.bareName &&
    values.assignee === undefined &&
    values.created_by === undefined &&
    caller.readableKinds.includes('person')
      ? await resolveBareName(
          deps.db,
          visibility,
          terms.map((term) => term.text),
        )
      : null
  if (bare && question.bareName) {
    const said = question.bareName.state === 'said'
    values[said ? 'created_by' : 'assignee'] = bare.id
    const state = question.bareName.state
    // What they are doing is their open work: nothing of theirs may be in progress right now.
    if (!values.status && (state === 'working' || state === 'open'))
      values.status = [...OPEN_STATUSES]
    if (!values.status && state === 'done') values.status = ['done']
    terms = terms.filter((term) => term.text !== bare.word && !isTaskNoun(term.text))
  }
  if (person) {
    values[role] = person.id
    const named = new Set(person.words)
    terms = terms.filter(
      (term) => !named.has(term.text.replace(/['’]s$/, '')) && !isTaskNoun(term.text),
    )
  }
  // A team named in the question, or by name in `team`, as the person is.
  const team = caller.readableKinds.includes('team')
    ? await namedFilter(
        values.team,
        (value) => value.startsWith('team_'),
        question.team?.words,
        (words) => resolveTeamName(deps.db, visibility, words),
      )
    : null
  if (team) {
    values.team = team.id
    const named = new Set([...team.words, 'team'])
    terms = terms.filter((term) => {
      const word = term.text.replace(/['’]s$/, '')
      return !named.has(word) && !isKindWord(term.text)
    })
  }
  // What the question asks comments on, named by its title among what the caller may open: a
  // project keeps the comments in it, anything else those on it.
  const subject =
    question.on && values.on === undefined && values.project_id === undefined
      ? await resolveTitled(
          deps.db,
          visibility,
          question.on.words.join(' '),
          question.on.kind
            ? readableKinds.filter((kind) => kind === question.on?.kind)
            : readableKinds,
        )
      : null
  let onTitle: string | undefined
  let projectName: string | undefined
  if (subject && question.on) {
    if (subject.type === 'project') {
      values.project_id = subject.id
      projectName = safeLine(subject.title)
    } else {
      values.on = subject.id
      onTitle = safeLine(subject.title)
    }
    const named = new Set([...question.on.words, ...question.on.frame])
    terms = terms.filter((term) => !named.has(term.text))
  }
  // The kinds a question about a team's things names ("the web team's projects"), once the team
  // is one the caller may see.
  const teamKinds = team?.fromQuestion ? (question.team?.kinds ?? []) : []
  const namedKinds = subject
    ? ['comment']
    : (question.types ?? (teamKinds.length > 0 ? teamKinds : null))
  let unresolvedProject: string | undefined
  const projectWords = question.project?.words
    .split(/\s+/)
    .map((word) => word.replace(/['’]s$/, ''))
    .filter((word) => !person?.words.includes(word) && !team?.words.includes(word))
    .filter((word) => !(team && word === 'team'))
    // "the data migration project": the kind's noun says what the name is, it is not in it.
    .filter((word) => !/^projects?$/.test(word))
    .join(' ')
  if (question.project && projectWords && values.project_id === undefined && !subject) {
    const project = await resolveProjectName(deps.db, visibility, projectWords)
    if (project) {
      values.project_id = project.id
      projectName = safeLine(project.name)
      // The words named the project: they filter, so they no longer need to match.
      const named = new Set(projectWords.split(/\s+/))
      terms = terms.filter((term) => !named.has(term.text))
    } else if (question.project.explicit) {
      unresolvedProject = question.project.words
    }
  }
  const resolved = unresolvedProject ? null : await resolveFilters(deps.db, visibility, values, now)
  // Kinds the words named that the filters rule out ("unassigned tickets across all projects")
  // were a scope, not what to list: the filters define the set.
  const listed = kindsFor(
    resolved ?? {},
    asked.filter((type) => !namedKinds || namedKinds.includes(type)),
  )
  const types = listed.length > 0 || !namedKinds ? listed : kindsFor(resolved ?? {}, asked)
  const applied: Static<typeof AppliedFilters> = {
    ...values,
    ...(projectName ? { project_name: projectName } : {}),
    ...(person ? { [`${role}_name`]: safeLine(person.name) } : {}),
    ...(bare
      ? {
          [question.bareName?.state === 'said' ? 'created_by_name' : 'assignee_name']: safeLine(
            bare.name,
          ),
        }
      : {}),
    ...(team ? { team_name: safeLine(team.name) } : {}),
    ...(onTitle ? { on_title: onTitle } : {}),
    ...(unresolvedProject ? { project: safeLine(unresolvedProject) } : {}),
  }
  const interpreted: Static<typeof Interpreted> = {
    // The question's own words are echoed by the same rule as the workspace's text.
    words: terms.map((term) => safeLine(term.text)),
    ...(question.phrases.length > 0 ? { phrases: question.phrases.map(safeLine) } : {}),
    ...(question.excluded.length > 0 ? { excluded: question.excluded.map(safeLine) } : {}),
    filters: applied,
    types,
  }
  const limit = body.limit ?? 10
  const bind = (filters: typeof applied, kinds: readonly SearchKind[] = types) =>
    bindingOf(credential.id, ROUTE, {}, { query: body.query, types: [...kinds].sort(), filters })
  // "What is Ben working on", when nothing of his is in progress, asks what he has still to do:
  // the answer widens to his open work, and its cursors are bound to what it widened to.
  const widenable = resolved !== null && question.workingOrOpen && !given.status
  const widened = { ...applied, status: [...OPEN_STATUSES] }
  // When nothing matches everything read from the words, the answer drops what was read of
  // states, times and kinds (relaxed-filters.ts), and its cursors are bound to what it kept.
  const relaxation = relaxFilters(
    values,
    applied,
    new Set([...Object.keys(given), ...question.typed.filters]),
  )
  const namedDropped =
    namedKinds !== null && !body.types && !question.typed.kinds
      ? types.filter((kind) => namedKinds.includes(kind))
      : []
  const relaxable =
    terms.length > 0 &&
    !unresolvedProject &&
    (Object.keys(relaxation.dropped).length > 0 || namedDropped.length > 0)
  let relaxedTo: { filters: ResolvedFilters; types: SearchKind[] } | null = null
  const relax = async () => {
    const filters = await resolveFilters(deps.db, visibility, relaxation.kept, now)
    return filters && { filters, types: kindsFor(filters, asked) }
  }
  const decodes = (binding: string) =>
    body.cursor === undefined || deps.cursors.decode(body.cursor, binding) !== null
  const strict = decodes(bind(applied))
  let wide = !strict && widenable && decodes(bind(widened))
  if (!strict && !wide && relaxable) {
    const relaxed = await relax()
    if (relaxed && decodes(bind(relaxation.applied, relaxed.types))) relaxedTo = relaxed
  }
  const after = readCursor(
    deps.cursors,
    body.cursor,
    relaxedTo ? bind(relaxation.applied, relaxedTo.types) : bind(wide ? widened : applied),
  )
  const search = (filters: ResolvedFilters | null, kinds = types, listed = namedKinds !== null) =>
    filters === null || kinds.length === 0
      ? Promise.resolve([])
      : searchIndex(deps.db, visibility, {
          question: { ...question, terms },
          filters,
          types: kinds,
          readableKinds,
          after,
          limit,
          // Kinds the words named, not given in `types`: a filter said in words.
          listed: listed && !body.types,
          today: utcDay(now),
        })
  const open = resolved && { ...resolved, status: [...OPEN_STATUSES] }
  let rows: SearchRow[] = relaxedTo
    ? await search(relaxedTo.filters, relaxedTo.types, false)
    : await search(wide ? open : resolved)
  if (rows.length === 0 && widenable && !wide && !body.cursor) {
    rows = await search(open)
    wide = rows.length > 0
  }
  if (rows.length === 0 && relaxable && !relaxedTo && !body.cursor) {
    const relaxed = await relax()
    rows = relaxed ? await search(relaxed.filters, relaxed.types, false) : []
    if (rows.length > 0) relaxedTo = relaxed
  }
  if (wide) interpreted.filters = widened
  if (relaxedTo) {
    interpreted.filters = relaxation.applied
    interpreted.types = relaxedTo.types
    interpreted.dropped = { filters: relaxation.dropped, types: namedDropped }
  }
  const binding = relaxedTo
    ? bind(relaxation.applied, relaxedTo.types)
    : bind(wide ? widened : applied)
  const page = rows.slice(0, limit)
  const ws = visibility.principal.workspaceId
  const hits = page.map((row) => presentHit(row, deps.urls.resource(ws, row.type, row.id), now))
  // Nothing matched the words with the filters read or given: the words alone may find
  // something, and an agent should not read the empty answer as "there is none of it".
  const narrowed = Object.keys(interpreted.filters).length > 0 || question.types !== null
  if (hits.length === 0 && !body.cursor && terms.length > 0 && narrowed)
    interpreted.broader = interpreted.words.join(' ')
  return packSearch(
    hits,
    rows.length > limit,
    body.max_tokens ?? 2000,
    (index) => {
      const row = page[index] as SearchRow
      return deps.cursors.encode([row.rank, row.updated_at.toISOString(), row.id], binding)
    },
    interpreted,
  )
}

// The request's filters with a single status as a list; impossible dates are a 422.
function checkedFilters(filters: SearchRequest['filters']): SearchFilterValues {
  if (!filters) return {}
  const errors: { path: string; message: string }[] = []
  const days = [
    'due_before',
    'due_after',
    'updated_after',
    'updated_before',
    'completed_after',
    'completed_before',
    'created_after',
    'created_before',
  ] as const
  for (const key of days) {
    const value = filters[key]
    if (value === undefined) continue
    // Postgres refuses what JavaScript rolls over ("2026-02-30") and years it has no room for.
    if (!isStorableDay(value) && !isStorableTime(value))
      errors.push({
        path: `/filters/${key}`,
        message: `is not a date from ${FIRST_DAY} to ${LAST_DAY}`,
      })
  }
  if (errors.length > 0) {
    throw new ProblemError('validation_failed', 'A filter holds an impossible date.', { errors })
  }
  const { status, health, ...rest } = filters
  const out: SearchFilterValues = {
    ...rest,
    ...(status === undefined ? {} : { status: typeof status === 'string' ? [status] : status }),
    ...(health === undefined ? {} : { health: typeof health === 'string' ? [health] : health }),
  }
  // A day alone is the time it begins: `after` it includes the day, `before` it excludes it.
  for (const key of [
    'updated_after',
    'updated_before',
    'completed_after',
    'completed_before',
    'created_after',
    'created_before',
  ] as const) {
    const value = filters[key]
    if (value?.length === 10) out[key] = `${value}T00:00:00.000Z`
  }
  return out
}

/** Whom or what a name refers to, and the words that named it. */
interface Named {
  id: string
  name: string
  words: string[]
  /** Read from the question's words, not from a field of `filters`. */
  fromQuestion: boolean
}

/**
 * What a filter's name refers to: the name given in `filters` (or read from an explicit filter)
 * when it is no reference (`isReference`: an id, or `me`), else the question's `words`, resolved
 * among what the caller may see by `resolve`. Null when nothing, or more than one, answers to
 * them. A given name that names nothing is left as it is: it then matches nothing, as an unknown
 * id does.
 */
async function namedFilter(
  given: string | undefined,
  isReference: (value: string) => boolean,
  words: readonly string[] | undefined,
  resolve: (words: string[]) => Promise<{ id: string; name: string } | null>,
): Promise<Named | null> {
  const asked =
    given === undefined ? words : isReference(given) ? undefined : given.toLowerCase().split(/\s+/)
  if (!asked || asked.length === 0) return null
  const found = await resolve([...asked])
  return found ? { ...found, words: [...asked], fromQuestion: given === undefined } : null
}

// The fields of `filters` that name a person, team or project, and which.
const NAMED_FILTERS = [
  ['assignee', 'person'],
  ['created_by', 'person'],
  ['member', 'person'],
  ['owner', 'person'],
  ['team', 'team'],
  ['project_id', 'project'],
] as const

/**
 * The request's filters with names given for people, teams and projects read by the one name
 * rule of every id field (api/named-reference.ts): a name that names several is the 422 that
 * lists them. One that names nothing stays as given and matches nothing, as an unknown id does
 * in a search.
 */
async function givenNames(
  db: Db,
  caller: SearchCaller,
  filters: SearchFilterValues,
): Promise<SearchFilterValues> {
  const named = { ...filters }
  for (const [field, kind] of NAMED_FILTERS) {
    const value = named[field]
    // `me` is read by the filters themselves: an integration's own items are its `created_by`.
    if (value === undefined || value === 'none' || value === 'me') continue
    try {
      named[field] = await namedReference(db, caller, kind, value, `/filters/${field}`)
    } catch (error) {
      if (!(error instanceof ProblemError && error.code === 'not_found')) throw error
    }
  }
  return named
}

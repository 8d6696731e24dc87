import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Static } from 'typebox'
import { teamChangeRefusal } from '../access/directory-stewards.ts'
import { ProblemError } from '../api/problem-catalogue.ts'
import type { AppDeps } from '../app-deps.ts'
import { listPeople, listTeams, type TeamRow } from '../graph/people/people.queries.ts'
import {
  addTeamMember,
  createTeam,
  removeTeamMember,
  renameTeam,
} from '../graph/people/teams.commands.ts'
import { AddTeamMemberBody, CreateTeamBody, UpdateTeamBody } from '../graph/people/teams.schemas.ts'
import type { WriteContext } from '../writes/write-context.ts'
import { confirmPage } from './credential-pages.view.ts'
import { checkedInput, formProblem } from './form-problems.ts'
import { forbiddenFormPage, notFoundPage } from './message.view.ts'
import { sendPage } from './page-headers.ts'
import { sendProblemPage } from './problem-page.ts'
import { seeOther } from './see-other.ts'
import type { TeamForm } from './team-forms.view.ts'
import { TEAMS_PATH, teamsPage } from './teams-page.view.ts'
import { SIGNED_IN_PAGE, type WebContext } from './web-context.ts'
import { type FormBody, formOf, isOwnForm, webCommand } from './web-write.ts'

const LIST_LIMIT = 500

// Fixed confirmations chosen by `?done=`: a page never echoes text from its address.
const NOTICES: Record<string, string> = {
  created: 'The team was created.',
  renamed: 'The team was renamed.',
  added: 'The person was added: they open what the team opens from now on.',
  removed: 'The person was removed from the team.',
}

const text = (value: FormBody[string]) =>
  (Array.isArray(value) ? (value[0] ?? '') : (value ?? '')).trim()
const list = (value: FormBody[string]) => (value === undefined ? [] : [value].flat())

/**
 * The Teams page (`/teams`): the teams the viewer may see (a guest, the ones they belong to)
 * with their members; owners and admins create, rename and fill them through the API's commands
 * (`teams.commands.ts`), so a refusal is the API's. Removing a member asks first.
 */
export function teamsPageRoutes(deps: AppDeps) {
  return async (app: FastifyInstance) => {
    async function show(
      reply: FastifyReply,
      web: WebContext,
      status: number,
      extra: { notice?: string | null; refused?: { form: TeamForm; error: unknown } } = {},
    ) {
      const { visibility } = web.caller
      const [teams, people] = await Promise.all([
        listTeams(deps.db, visibility, {}, null, LIST_LIMIT),
        listPeople(deps.db, visibility, {}, null, LIST_LIMIT),
      ])
      const problem = extra.refused ? formProblem(extra.refused.error) : null
      const page = teamsPage(web, {
        teams: teams.slice(0, LIST_LIMIT),
        people: people.slice(0, LIST_LIMIT),
        steward: teamChangeRefusal(web.caller.principal) === null,
        notice: extra.notice ?? null,
        ...(extra.refused && problem ? { refused: { form: extra.refused.form, problem } } : {}),
      })
      return sendPage(reply, status, page)
    }

    // A team the viewer may see: a hidden or unknown one is the one 404 page.
    async function visibleTeam(web: WebContext, id: string): Promise<TeamRow | undefined> {
      const [team] = await listTeams(deps.db, web.caller.visibility, { ids: [id] }, null, 1)
      return team
    }

    /**
     * The checks every POST makes, in order: the form is ours, the team (if any) is one the
     * viewer sees, the viewer changes teams. The team, or null once the refusal is answered.
     */
    async function admitted(
      request: FastifyRequest,
      reply: FastifyReply,
    ): Promise<{ team: TeamRow | null } | null> {
      const web = request.web as WebContext
      if (!isOwnForm(request, deps.config.publicUrl)) {
        sendPage(reply, 403, forbiddenFormPage(web))
        return null
      }
      const { id } = (request.params ?? {}) as { id?: string }
      const team = id === undefined ? null : await visibleTeam(web, id)
      if (team === undefined) {
        sendPage(reply, 404, notFoundPage(web))
        return null
      }
      const refusal = teamChangeRefusal(web.caller.principal)
      if (refusal) {
        sendProblemPage(reply, web, new ProblemError('forbidden', refusal))
        return null
      }
      return { team }
    }

    /**
     * Runs a form's command: true once done, or false once its refusal is answered (the 404 or
     * 403 page, or the page again with the message beside the form).
     */
    async function run(
      request: FastifyRequest,
      reply: FastifyReply,
      form: TeamForm,
      prepare: () => (w: WriteContext) => Promise<unknown>,
    ): Promise<boolean> {
      const web = request.web as WebContext
      try {
        // The form is checked against the API's schema before the write spends anything.
        await webCommand(deps, request, `team ${form.kind}`, prepare())
        return true
      } catch (error) {
        const problem = formProblem(error)
        if (!problem || problem.status === 403 || problem.status === 404)
          sendProblemPage(reply, web, error)
        else await show(reply, web, problem.status, { refused: { form, error } })
        return false
      }
    }

    app.get(TEAMS_PATH, SIGNED_IN_PAGE, async (request, reply) => {
      const web = request.web as WebContext
      const { done } = request.query as { done?: string }
      return show(reply, web, 200, { notice: (done && NOTICES[done]) || null })
    })

    app.post(TEAMS_PATH, SIGNED_IN_PAGE, async (request, reply) => {
      if (!(await admitted(request, reply))) return reply
      const fields = formOf(request)
      const form: TeamForm = {
        kind: 'create',
        name: text(fields.name),
        memberIds: list(fields.member_ids),
      }
      const done = await run(request, reply, form, () => {
        const body = checkedInput<Static<typeof CreateTeamBody>>(CreateTeamBody, {
          name: form.name,
          ...(form.memberIds?.length ? { member_ids: form.memberIds } : {}),
        })
        return (w) => createTeam(w, body)
      })
      return done ? seeOther(reply, `${TEAMS_PATH}?done=created`) : reply
    })

    app.post(`${TEAMS_PATH}/:id/name`, SIGNED_IN_PAGE, async (request, reply) => {
      const admission = await admitted(request, reply)
      if (!admission?.team) return reply
      const teamId = admission.team.id
      const form: TeamForm = { kind: 'rename', teamId, name: text(formOf(request).name) }
      const done = await run(request, reply, form, () => {
        const body = checkedInput<Static<typeof UpdateTeamBody>>(UpdateTeamBody, {
          name: form.name,
        })
        return (w) => renameTeam(w, teamId, body.name)
      })
      return done ? seeOther(reply, `${TEAMS_PATH}?done=renamed`) : reply
    })

    app.post(`${TEAMS_PATH}/:id/members`, SIGNED_IN_PAGE, async (request, reply) => {
      const admission = await admitted(request, reply)
      if (!admission?.team) return reply
      const teamId = admission.team.id
      const form: TeamForm = { kind: 'add', teamId }
      const personId = text(formOf(request).person_id)
      const done = await run(request, reply, form, () => {
        const body = checkedInput<Static<typeof AddTeamMemberBody>>(AddTeamMemberBody, {
          person_id: personId,
        })
        return (w) => addTeamMember(w, teamId, body)
      })
      return done ? seeOther(reply, `${TEAMS_PATH}?done=added`) : reply
    })

    app.get(
      `${TEAMS_PATH}/:id/members/:personId/remove`,
      SIGNED_IN_PAGE,
      async (request, reply) => {
        const web = request.web as WebContext
        const { id, personId } = request.params as { id: string; personId: string }
        const team = await visibleTeam(web, id)
        const [person] = team?.member_ids.includes(personId)
          ? await listPeople(deps.db, web.caller.visibility, { ids: [personId] }, null, 1)
          : []
        if (!team || !person) return sendPage(reply, 404, notFoundPage(web))
        const refusal = teamChangeRefusal(web.caller.principal)
        if (refusal) return sendProblemPage(reply, web, new ProblemError('forbidden', refusal))
        return sendPage(
          reply,
          200,
          confirmPage(web, {
            title: 'Remove from a team',
            lede: `Remove ${person.name} from ${team.name}? From the next request on, they no longer open what they opened only through this team.`,
            action: `${TEAMS_PATH}/${team.id}/members/${person.id}/remove`,
            label: `Remove ${person.name} from ${team.name}`,
            back: TEAMS_PATH,
            current: TEAMS_PATH,
          }),
        )
      },
    )

    app.post(
      `${TEAMS_PATH}/:id/members/:personId/remove`,
      SIGNED_IN_PAGE,
      async (request, reply) => {
        const admission = await admitted(request, reply)
        if (!admission?.team) return reply
        const teamId = admission.team.id
        const { personId } = request.params as { personId: string }
        const done = await run(
          request,
          reply,
          { kind: 'remove', teamId },
          () => (w) => removeTeamMember(w, teamId, personId),
        )
        return done ? seeOther(reply, `${TEAMS_PATH}?done=removed`) : reply
      },
    )
  }
}

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Static } from 'typebox'
import { mayChangeProject } from '../access/project-stewards.ts'
import { ProblemError } from '../api/problem-catalogue.ts'
import { fieldName } from '../api/validation-messages.ts'
import type { AppDeps } from '../app-deps.ts'
import { listPeople, listTeams } from '../graph/people/people.queries.ts'
import { listDirectMembers, listIntegrations } from '../graph/projects/direct-members.queries.ts'
import {
  addProjectMember,
  removeProjectMember,
} from '../graph/projects/project-members.commands.ts'
import { updateProject } from '../graph/projects/projects.commands.ts'
import { listProjects, type ProjectRow } from '../graph/projects/projects.queries.ts'
import { AddProjectMemberBody, UpdateProjectBody } from '../graph/projects/projects.schemas.ts'
import { idKind } from '../lib/ids.ts'
import type { WriteContext } from '../writes/write-context.ts'
import { confirmPage } from './credential-pages.view.ts'
import { checkedInput, formProblem } from './form-problems.ts'
import { forbiddenFormPage, notFoundPage } from './message.view.ts'
import { sendPage } from './page-headers.ts'
import { sendProblemPage } from './problem-page.ts'
import { type MembersRefusal, membersPath, projectMembersPage } from './project-members.view.ts'
import { seeOther } from './see-other.ts'
import { SIGNED_IN_PAGE, type WebContext } from './web-context.ts'
import { type FormBody, formOf, isOwnForm, webCommand } from './web-write.ts'

const LIST_LIMIT = 500
const NOT_STEWARD =
  "Only the project's owner and the workspace's owners and admins may change who can open it."

// Fixed confirmations chosen by `?done=`: a page never echoes text from its address.
const NOTICES: Record<string, string> = {
  added: 'The member was added: they open the project from now on.',
  removed: 'The member was removed.',
  access: 'Who may open the project was saved.',
}

const text = (value: FormBody[string]) =>
  (Array.isArray(value) ? (value[0] ?? '') : (value ?? '')).trim()

type Refused = {
  form: MembersRefusal['form']
  error: unknown
  tried?: AccessTried
  memberId?: string
}
type AccessTried = { visibility: 'workspace' | 'private'; ownerId: string }

/**
 * A project's members page (`/projects/:id/members`): its direct members for everyone who may
 * open it; adding and removing members, visibility and owner for its owner and the workspace's
 * owners and admins, through the API's commands. A project the viewer cannot open is the one 404.
 */
export function projectMemberRoutes(deps: AppDeps) {
  return async (app: FastifyInstance) => {
    async function openable(web: WebContext, id: string): Promise<ProjectRow | undefined> {
      const [project] = await listProjects(deps.db, web.caller.visibility, { ids: [id] }, null, 1)
      return project
    }

    function steward(web: WebContext, project: ProjectRow): boolean {
      const { principal } = web.caller
      const callerBelongs = principal.projectIds.includes(project.id)
      return mayChangeProject(principal, { ownerId: project.owner_id, callerBelongs }, 'access')
    }

    async function show(
      reply: FastifyReply,
      web: WebContext,
      project: ProjectRow,
      status: number,
      extra: { notice?: string | null; refused?: Refused } = {},
    ) {
      const { visibility } = web.caller
      const [members, people, teams, integrations] = await Promise.all([
        listDirectMembers(deps.db, visibility, project.id),
        listPeople(deps.db, visibility, {}, null, LIST_LIMIT),
        listTeams(deps.db, visibility, {}, null, LIST_LIMIT),
        listIntegrations(deps.db, visibility),
      ])
      const direct = new Set(members.map((member) => member.id))
      const owner = project.owner_visible
        ? people.find((person) => person.id === project.owner_id)
        : undefined
      const active = people.slice(0, LIST_LIMIT).filter((person) => !person.deactivated_at)
      // The current owner stays a choice even when the viewer cannot see them, or they left.
      const owners = active.some((person) => person.id === project.owner_id)
        ? active
        : [{ id: project.owner_id, name: owner?.name ?? 'The current owner' }, ...active]
      const tried = extra.refused?.tried
      const refusal = extra.refused ? formProblem(extra.refused.error) : null
      // A refused removal names the member, where the API's sentence names its field.
      const removing = extra.refused?.memberId
        ? members.find((member) => member.id === extra.refused?.memberId)
        : undefined
      const field = `${fieldName('/member_id')} `
      const problem =
        refusal && removing && refusal.detail.startsWith(field)
          ? {
              ...refusal,
              detail: `Removing ${removing.name} ${refusal.detail.slice(field.length)}`,
            }
          : refusal
      const page = projectMembersPage(web, {
        project,
        owner: owner ? { id: owner.id, name: owner.name } : null,
        members,
        steward: steward(web, project)
          ? {
              choices: {
                people: active.filter((person) => !direct.has(person.id)),
                teams: teams.slice(0, LIST_LIMIT).filter((team) => !direct.has(team.id)),
                integrations: integrations.filter((integration) => !direct.has(integration.id)),
              },
              access: {
                projectId: project.id,
                visibility: tried?.visibility ?? project.visibility,
                ownerId: tried?.ownerId ?? project.owner_id,
                owners,
              },
            }
          : null,
        notice: extra.notice ?? null,
        ...(extra.refused && problem ? { refused: { form: extra.refused.form, problem } } : {}),
      })
      return sendPage(reply, status, page)
    }

    /**
     * The checks every POST makes, in order: the form is ours, the viewer may open the project,
     * and decides who may open it. The project, or null once the refusal is answered.
     */
    async function admitted(
      request: FastifyRequest,
      reply: FastifyReply,
    ): Promise<ProjectRow | null> {
      const web = request.web as WebContext
      if (!isOwnForm(request, deps.config.publicUrl)) {
        sendPage(reply, 403, forbiddenFormPage(web))
        return null
      }
      const { id } = request.params as { id: string }
      const project = await openable(web, id)
      if (!project) {
        sendPage(reply, 404, notFoundPage(web))
        return null
      }
      if (!steward(web, project)) {
        sendProblemPage(reply, web, new ProblemError('forbidden', NOT_STEWARD))
        return null
      }
      return project
    }

    /**
     * Runs a form's command: true once done, or false once its refusal is answered (the 404 or
     * 403 page, or the members page again with the message beside the form).
     */
    async function run(
      request: FastifyRequest,
      reply: FastifyReply,
      project: ProjectRow,
      refused: Omit<Refused, 'error'>,
      prepare: () => (w: WriteContext) => Promise<unknown>,
    ): Promise<boolean> {
      const web = request.web as WebContext
      try {
        // The form is checked against the API's schema before the write spends anything.
        await webCommand(deps, request, `project ${refused.form}`, prepare())
        return true
      } catch (error) {
        const problem = formProblem(error)
        if (!problem || problem.status === 403 || problem.status === 404)
          sendProblemPage(reply, web, error)
        else await show(reply, web, project, problem.status, { refused: { ...refused, error } })
        return false
      }
    }

    app.get('/projects/:id/members', SIGNED_IN_PAGE, async (request, reply) => {
      const web = request.web as WebContext
      const { id } = request.params as { id: string }
      const project = await openable(web, id)
      if (!project) return sendPage(reply, 404, notFoundPage(web))
      const { done } = request.query as { done?: string }
      return show(reply, web, project, 200, { notice: (done && NOTICES[done]) || null })
    })

    app.post('/projects/:id/members', SIGNED_IN_PAGE, async (request, reply) => {
      const project = await admitted(request, reply)
      if (!project) return reply
      const member = text(formOf(request).member)
      // The choice's id says what it is; anything else is looked for as a person, by id or name.
      const kind = idKind(member)
      const field = kind === 'team' || kind === 'integration' ? kind : 'person'
      const done = await run(request, reply, project, { form: 'add' }, () => {
        const body = checkedInput<Static<typeof AddProjectMemberBody>>(AddProjectMemberBody, {
          [`${field}_id`]: member,
        })
        return (w) => addProjectMember(w, project.id, body)
      })
      return done ? seeOther(reply, `${membersPath(project.id)}?done=added`) : reply
    })

    app.post('/projects/:id/access', SIGNED_IN_PAGE, async (request, reply) => {
      const project = await admitted(request, reply)
      if (!project) return reply
      const fields = formOf(request)
      const visibility = text(fields.visibility)
      const ownerId = text(fields.owner_id) || project.owner_id
      const tried: AccessTried = {
        visibility: visibility === 'private' ? 'private' : 'workspace',
        ownerId,
      }
      // The owner is sent only when it changes: the viewer may not see the current one.
      const input = {
        visibility,
        ...(ownerId !== project.owner_id ? { owner_id: ownerId } : {}),
      }
      const done = await run(request, reply, project, { form: 'access', tried }, () => {
        const body = checkedInput<Static<typeof UpdateProjectBody>>(UpdateProjectBody, input)
        return (w) => updateProject(w, project.id, body)
      })
      return done ? seeOther(reply, `${membersPath(project.id)}?done=access`) : reply
    })

    app.get('/projects/:id/members/:memberId/remove', SIGNED_IN_PAGE, async (request, reply) => {
      const web = request.web as WebContext
      const { id, memberId } = request.params as { id: string; memberId: string }
      const project = await openable(web, id)
      const members = project ? await listDirectMembers(deps.db, web.caller.visibility, id) : []
      const member = members.find((each) => each.id === memberId)
      if (!project || !member) return sendPage(reply, 404, notFoundPage(web))
      if (!steward(web, project))
        return sendProblemPage(reply, web, new ProblemError('forbidden', NOT_STEWARD))
      const what =
        member.type === 'team'
          ? `Its members stop opening ${project.name} through it`
          : `They stop opening ${project.name} as a member`
      return sendPage(
        reply,
        200,
        confirmPage(web, {
          title: 'Remove a member',
          lede: `Remove ${member.name} from ${project.name}? ${what}, from the next request on, unless it is open to them another way.`,
          action: `${membersPath(project.id)}/${member.id}/remove`,
          label: `Remove ${member.name}`,
          back: membersPath(project.id),
          current: membersPath(project.id),
        }),
      )
    })

    app.post('/projects/:id/members/:memberId/remove', SIGNED_IN_PAGE, async (request, reply) => {
      const project = await admitted(request, reply)
      if (!project) return reply
      const { memberId } = request.params as { memberId: string }
      const done = await run(
        request,
        reply,
        project,
        { form: 'remove', memberId },
        () => (w) => removeProjectMember(w, project.id, memberId),
      )
      return done ? seeOther(reply, `${membersPath(project.id)}?done=removed`) : reply
    })
  }
}

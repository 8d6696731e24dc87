import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { notFound } from '../api/problem-catalogue.ts'
import type { AppDeps } from '../app-deps.ts'
import type { Db } from '../db/database.ts'
import { sendTestEvent } from '../webhooks/test-event.ts'
import {
  createEndpoint,
  recoverDeliveries,
  replayDelivery,
  rotateSecret,
  updateEndpoint,
} from '../webhooks/webhooks.commands.ts'
import {
  presentAttemptDetail,
  presentDelivery,
  presentEndpoint,
} from '../webhooks/webhooks.present.ts'
import {
  attemptsOf,
  type EndpointRow,
  findEndpoint,
  listDeliveries,
  listEndpoints,
} from '../webhooks/webhooks.queries.ts'
import {
  CreateWebhookBody,
  RecoverBody,
  RotateSecretBody,
  UpdateWebhookBody,
} from '../webhooks/webhooks.schemas.ts'
import type { WriteContext } from '../writes/write-context.ts'
import { fromOwnPages, sameToken } from './csrf.ts'
import { checkedInput, type FormProblem, formProblem, utcInstant } from './form-problems.ts'
import { forbiddenFormPage, notFoundPage } from './message.view.ts'
import { sendPage } from './page-headers.ts'
import { seeOther } from './see-other.ts'
import { SIGNED_IN_PAGE, type WebContext } from './web-context.ts'
import { webCommand } from './web-write.ts'
import { deliveryPage } from './webhook-delivery.view.ts'
import { type EndpointForm, endpointPage } from './webhook-endpoint.view.ts'
import { secretPage, webhookListPage } from './webhook-list.view.ts'

// The endpoints a page lists (a workspace has at most 50) and the deliveries an endpoint shows.
const LIST_LIMIT = 50
const RECENT_DELIVERIES = 25

type Form = Record<string, string | string[] | undefined>
const list = (value: Form[string]) => (value === undefined ? [] : [value].flat())
const text = (value: Form[string]) => (Array.isArray(value) ? value[0] : value)

// Fixed confirmations chosen by `?done=`: a page never echoes text from its address.
const NOTICES: Record<string, string> = {
  enabled: 'The endpoint is enabled.',
  disabled: 'The endpoint is disabled; waiting deliveries were skipped.',
  events: 'The events were saved.',
  test: 'A test event was queued; reload to see its delivery.',
  replayed: 'The delivery was queued again.',
  recovered: 'Failed and skipped deliveries since that time were queued again.',
}

/**
 * The webhook pages (docs/dashboard.md): the signed-in person's endpoints, with every action of
 * the API (`webhook:manage`) through the same commands, queries and schemas as its routes.
 */
export function webhookPageRoutes(deps: AppDeps) {
  const own = (db: Db, web: WebContext, id: string) => findEndpoint(db, web.caller, id)
  // A write on one of the person's endpoints, read again inside the write's transaction.
  const onEndpoint =
    <T>(id: string, command: (w: WriteContext, endpoint: EndpointRow) => Promise<T>) =>
    async (w: WriteContext) => {
      const endpoint = await findEndpoint(w.trx, w.caller, id)
      if (!endpoint) throw notFound()
      return command(w, endpoint)
    }
  // CSRF first, before anything is read or changed.
  const refused = (request: FastifyRequest, reply: FastifyReply) => {
    const web = request.web as WebContext
    const body = (request.body ?? {}) as Form
    if (fromOwnPages(request, deps.config.publicUrl) && sameToken(body.csrf, web.csrf)) return null
    return sendPage(reply, 403, forbiddenFormPage(web))
  }

  async function showEndpoint(
    reply: FastifyReply,
    web: WebContext,
    endpoint: EndpointRow,
    status: number,
    notice: string | null,
    problem: { form: EndpointForm; problem: FormProblem } | null = null,
  ) {
    const rows = await listDeliveries(deps.db, endpoint, {}, null, RECENT_DELIVERIES)
    const page = rows.slice(0, RECENT_DELIVERIES)
    const attempts = await attemptsOf(
      deps.db,
      endpoint.workspace_id,
      page.map((row) => row.id),
    )
    const deliveries = page.map((row) => presentDelivery(row, attempts.get(row.id) ?? []))
    const shown = presentEndpoint(endpoint, deps.clock.now())
    return sendPage(
      reply,
      status,
      endpointPage(web, { endpoint: shown, deliveries, notice, problem }),
    )
  }

  /**
   * Runs an endpoint form's write: its value, or null once a refusal has been answered (the
   * endpoint page with the message by the form, or the 404 page). Never the reply itself: a
   * reply is thenable, so an async function returning it hands back undefined.
   */
  async function endpointWrite<T>(
    request: FastifyRequest,
    reply: FastifyReply,
    form: EndpointForm,
    run: (w: WriteContext, endpoint: EndpointRow) => Promise<T>,
    input: () => unknown = () => null,
  ): Promise<{ value: T } | null> {
    const web = request.web as WebContext
    const { id } = request.params as { id: string }
    try {
      input()
      return { value: await webCommand(deps, request, `webhook ${form}`, onEndpoint(id, run)) }
    } catch (error) {
      const problem = formProblem(error)
      if (!problem) throw error
      const endpoint = await own(deps.db, web, id)
      if (!endpoint || problem.status === 404) sendPage(reply, 404, notFoundPage(web))
      else await showEndpoint(reply, web, endpoint, problem.status, null, { form, problem })
      return null
    }
  }

  const back = (reply: FastifyReply, path: string, done: string) =>
    seeOther(reply, `${path}?done=${done}`)

  return async (app: FastifyInstance) => {
    app.get('/webhooks', SIGNED_IN_PAGE, async (request, reply) => {
      const web = request.web as WebContext
      return sendPage(reply, 200, webhookListPage(web, await endpointsOf(web)))
    })

    async function endpointsOf(web: WebContext) {
      const rows = await listEndpoints(deps.db, web.caller, {}, null, LIST_LIMIT)
      const now = deps.clock.now()
      return rows.slice(0, LIST_LIMIT).map((row) => presentEndpoint(row, now))
    }

    app.post('/webhooks', SIGNED_IN_PAGE, async (request, reply) => {
      const web = request.web as WebContext
      if (refused(request, reply)) return reply
      const body = request.body as Form
      const values = {
        url: text(body.url) ?? '',
        events: list(body.events),
        description: text(body.description) ?? '',
      }
      try {
        const input = checkedInput<{ url: string; events: string[]; description?: string }>(
          CreateWebhookBody,
          { ...values, description: values.description || undefined },
        )
        const created = await webCommand(deps, request, 'webhook create', (w) =>
          createEndpoint(w, input),
        )
        const endpoint = presentEndpoint(created.row, deps.clock.now())
        return sendPage(reply, 201, secretPage(web, endpoint, created.secret))
      } catch (error) {
        const problem = formProblem(error)
        if (!problem) throw error
        const page = webhookListPage(web, await endpointsOf(web), problem, values)
        return sendPage(reply, problem.status, page)
      }
    })

    app.get('/webhooks/:id', SIGNED_IN_PAGE, async (request, reply) => {
      const web = request.web as WebContext
      const { id } = request.params as { id: string }
      const endpoint = await own(deps.db, web, id)
      if (!endpoint) return sendPage(reply, 404, notFoundPage(web))
      const { done } = request.query as { done?: string }
      return showEndpoint(reply, web, endpoint, 200, (done && NOTICES[done]) || null)
    })

    app.post('/webhooks/:id/status', SIGNED_IN_PAGE, async (request, reply) => {
      if (refused(request, reply)) return reply
      const status = text((request.body as Form).status)
      const input = () =>
        checkedInput<{ status: 'active' | 'disabled' }>(UpdateWebhookBody, { status })
      const result = await endpointWrite(
        request,
        reply,
        'action',
        (w, endpoint) => updateEndpoint(w, endpoint, input()),
        input,
      )
      if (!result) return reply
      return back(
        reply,
        `/webhooks/${result.value.id}`,
        status === 'active' ? 'enabled' : 'disabled',
      )
    })

    app.post('/webhooks/:id/events', SIGNED_IN_PAGE, async (request, reply) => {
      if (refused(request, reply)) return reply
      const events = list((request.body as Form).events)
      const input = () => checkedInput<{ events: string[] }>(UpdateWebhookBody, { events })
      const result = await endpointWrite(
        request,
        reply,
        'events',
        (w, endpoint) => updateEndpoint(w, endpoint, input()),
        input,
      )
      if (!result) return reply
      return back(reply, `/webhooks/${result.value.id}`, 'events')
    })

    app.post('/webhooks/:id/rotate', SIGNED_IN_PAGE, async (request, reply) => {
      const web = request.web as WebContext
      if (refused(request, reply)) return reply
      const body = request.body as Form
      const grace = text(body.grace_period_seconds)
      const raw = {
        grace_period_seconds: grace === undefined || grace === '' ? undefined : Number(grace),
        ...(text(body.force) === 'true' && { force: true }),
      }
      const input = () =>
        checkedInput<{ grace_period_seconds?: number; force?: boolean }>(RotateSecretBody, raw)
      const result = await endpointWrite(
        request,
        reply,
        'rotate',
        async (w, endpoint) => ({ endpoint, rotated: await rotateSecret(w, endpoint, input()) }),
        input,
      )
      if (!result) return reply
      const { endpoint, rotated } = result.value
      const shown = presentEndpoint(endpoint, deps.clock.now())
      const previousExpiresAt = rotated.previousExpiresAt?.toISOString() ?? null
      return sendPage(reply, 200, secretPage(web, shown, rotated.secret, { previousExpiresAt }))
    })

    app.post('/webhooks/:id/test', SIGNED_IN_PAGE, async (request, reply) => {
      if (refused(request, reply)) return reply
      const result = await endpointWrite(request, reply, 'action', async (w, endpoint) => {
        await sendTestEvent(w, endpoint)
        return endpoint.id
      })
      if (!result) return reply
      return back(reply, `/webhooks/${result.value}`, 'test')
    })

    app.post('/webhooks/:id/recover', SIGNED_IN_PAGE, async (request, reply) => {
      if (refused(request, reply)) return reply
      const since = utcInstant(text((request.body as Form).since))
      const input = () => checkedInput<{ since: string }>(RecoverBody, { since })
      const result = await endpointWrite(
        request,
        reply,
        'recover',
        async (w, endpoint) => {
          await recoverDeliveries(w, endpoint, new Date(input().since))
          return endpoint.id
        },
        input,
      )
      if (!result) return reply
      return back(reply, `/webhooks/${result.value}`, 'recovered')
    })

    app.get('/webhooks/:id/deliveries/:deliveryId', SIGNED_IN_PAGE, async (request, reply) => {
      const web = request.web as WebContext
      const { id, deliveryId } = request.params as { id: string; deliveryId: string }
      const { done } = request.query as { done?: string }
      const endpoint = await own(deps.db, web, id)
      const [row] = endpoint
        ? await listDeliveries(deps.db, endpoint, { ids: [deliveryId] }, null, 1)
        : []
      if (!endpoint || !row) return sendPage(reply, 404, notFoundPage(web))
      const attempts =
        (await attemptsOf(deps.db, endpoint.workspace_id, [row.id])).get(row.id) ?? []
      const page = deliveryPage(web, {
        endpoint: presentEndpoint(endpoint, deps.clock.now()),
        delivery: presentDelivery(row, []),
        attempts: attempts.map(presentAttemptDetail),
        notice: (done && NOTICES[done]) || null,
      })
      return sendPage(reply, 200, page)
    })

    app.post(
      '/webhooks/:id/deliveries/:deliveryId/replay',
      SIGNED_IN_PAGE,
      async (request, reply) => {
        if (refused(request, reply)) return reply
        const { deliveryId } = request.params as { deliveryId: string }
        const result = await endpointWrite(request, reply, 'action', async (w, endpoint) => {
          const [delivery] = await listDeliveries(w.trx, endpoint, { ids: [deliveryId] }, null, 1)
          if (!delivery) throw notFound()
          await replayDelivery(w, endpoint, delivery)
          return `/webhooks/${endpoint.id}/deliveries/${delivery.id}`
        })
        if (!result) return reply
        return back(reply, result.value, 'replayed')
      },
    )
  }
}

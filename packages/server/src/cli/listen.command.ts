import { parseArgs } from 'node:util'
import { type CliIO, UsageError } from './cli-io.ts'
import { serverCall } from './server-call.ts'
import { serverTarget } from './server-target.ts'
import { stopSignal } from './stop-signal.ts'
import { type Forwarded, WebhookForwarder } from './webhook-forwarder.ts'

/**
 * `workgraph listen --forward-to URL [--events a,b] [--projects p,q]`: the local loop of `stripe
 * listen` (docs/webhooks.md, "Receiving locally"). It registers a temporary webhook endpoint on
 * the server named by WORKGRAPH_URL, with WORKGRAPH_API_KEY, that delivers to a receiver of its
 * own on a loopback port; passes each signed delivery on to URL unchanged, so the app verifies it
 * with the printed secret; prints a line for each; and removes the endpoint on SIGINT or SIGTERM.
 * `--projects` is the endpoint's `project_ids`, so an app meant for a few projects is tried on
 * exactly what it will hear.
 */
export async function listenCommand(args: string[], io: CliIO): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      'forward-to': { type: 'string' },
      events: { type: 'string' },
      projects: { type: 'string' },
    },
    strict: true,
  })
  const forwardTo = forwardTarget(values['forward-to'])
  const events = values.events?.split(',').map((event) => event.trim())
  const projects = values.projects?.split(',').map((project) => project.trim())
  const target = serverTarget(io.env)
  const stopped = stopSignal()
  const forwarder = new WebhookForwarder(forwardTo, (forwarded) =>
    io.stdout.write(`${line(forwarded)}\n`),
  )
  const receiver = await forwarder.start()
  let endpointId: string | null = null
  try {
    const made = await serverCall(target, 'POST', '/v1/webhooks', {
      url: receiver,
      description: `workgraph listen → ${forwardTo.href} (removed when it stops)`,
      ...(events ? { events } : {}),
      ...(projects ? { project_ids: projects } : {}),
    })
    endpointId = made.id as string
    forwarder.trust(made.secret as string)
    io.stdout.write(
      [
        `Ready: deliveries of ${target.base.origin} go to ${forwardTo.href}, signed as the server signs them.`,
        `Signing secret (verify with it in your app): ${made.secret}`,
        `Temporary endpoint ${endpointId}, removed when you stop this (Ctrl-C).`,
        '',
      ].join('\n'),
    )
    await stopped.received
    return 0
  } finally {
    stopped.cancel()
    await forwarder.close()
    if (endpointId) {
      await serverCall(target, 'DELETE', `/v1/webhooks/${endpointId}`).catch((error: unknown) =>
        io.stderr.write(`Could not remove endpoint ${endpointId}: ${(error as Error).message}\n`),
      )
    }
  }
}

// The URL deliveries are forwarded to: any http(s) URL, usually the app on this machine.
function forwardTarget(raw: string | undefined): URL {
  if (!raw) throw new UsageError('Give --forward-to, the URL of your app that receives webhooks.')
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new UsageError(`--forward-to is not a URL: ${raw}`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`--forward-to must be an http or https URL; got ${url.protocol}`)
  return url
}

// A delivery as one line: when, what, and what the app answered.
function line(forwarded: Forwarded): string {
  const at = new Date().toISOString().slice(11, 19)
  const outcome = forwarded.problem
    ? `not delivered (${forwarded.problem})`
    : `${forwarded.status} in ${forwarded.ms} ms`
  return `${at}  ${forwarded.event.padEnd(22)} ${forwarded.id}  → ${outcome}`
}

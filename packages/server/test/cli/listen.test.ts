import assert from 'node:assert/strict'
import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, before, test } from 'node:test'
import { verifyWebhook } from '@workgraph/sdk'
import { type CliData, cliData, freePort, startCli } from '../harness/cli.ts'
import { TEST_SECRET } from '../harness/test-app.ts'

// `workgraph listen --forward-to URL` (docs/webhooks.md, "Receiving locally"): against a real
// `serve --demo`, each delivery reaches the app signed as the server signs it, a line is printed,
// and stopping removes the temporary endpoint.

let data: CliData
const env = { WORKGRAPH_SECRET: TEST_SECRET.toString('base64') }
before(async () => {
  data = await cliData('workgraph-listen-')
})
after(() => data.close())

// An app on this machine that receives webhooks: every request, as it came.
async function app() {
  const received: { headers: IncomingHttpHeaders; body: string }[] = []
  const server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') })
      response.writeHead(204).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`
  return { url, received, close: () => new Promise((resolve) => server.close(resolve)) }
}

test('listen forwards each signed delivery to the app, prints it, and removes its endpoint', async () => {
  const port = await freePort()
  const base = `http://127.0.0.1:${port}`
  const server = startCli(['serve', '--demo', '--port', String(port), ...data.target], env)
  const receiver = await app()
  try {
    const [, key] = await server.waitFor(/Authorization: Bearer (wg_key_\w+)"/)
    const api = (method: string, path: string, body?: unknown) =>
      fetch(`${base}${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        ...(body ? { body: JSON.stringify(body) } : {}),
      })
    const listen = startCli(['listen', '--forward-to', receiver.url, '--events', 'task.created'], {
      WORKGRAPH_URL: base,
      WORKGRAPH_API_KEY: key,
    })
    const [, secret] = await listen.waitFor(/Signing secret \(verify with it in your app\): (\S+)/)
    const [, endpoint] = await listen.waitFor(/Temporary endpoint (whk_\w+)/)
    const created = await api('POST', '/v1/tasks', { title: 'Forwarded by listen' })
    assert.equal(created.status, 201)
    const task = (await created.json()) as { id: string }
    await listen.waitFor(/task\.created\s+\S+\s+→ 204 in \d+ ms/)
    // The app got the delivery as the server signed it: it verifies with the printed secret.
    const delivered = receiver.received.at(-1)
    assert.ok(delivered)
    const event = verifyWebhook(delivered.body, delivered.headers, secret as string)
    assert.equal(event.type, 'task.created')
    assert.equal((event.data as { object: { id: string } }).object.id, task.id)
    // A request that is not the server's, to the receiver's port, goes nowhere.
    const forged = await fetch(
      `http://127.0.0.1:${await receiverPort(base, key as string, endpoint as string)}/`,
      { method: 'POST', body: '{"type":"task.created"}' },
    )
    assert.equal(forged.status, 401)
    assert.equal(receiver.received.length, 1)
    // Stopping removes the endpoint.
    listen.child.kill('SIGINT')
    assert.equal(await listen.exit(), 0)
    const gone = await api('GET', `/v1/webhooks/${endpoint}`)
    assert.equal(gone.status, 404)
  } finally {
    await receiver.close()
    server.child.kill('SIGTERM')
    await server.exit()
  }
})

test('listen --projects forwards only what belongs to those projects', async () => {
  const port = await freePort()
  const base = `http://127.0.0.1:${port}`
  const server = startCli(['serve', '--demo', '--port', String(port), ...data.target], env)
  const receiver = await app()
  try {
    const [, key] = await server.waitFor(/Authorization: Bearer (wg_key_\w+)"/)
    const api = async (method: string, path: string, body?: unknown) => {
      const answer = await fetch(`${base}${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        ...(body ? { body: JSON.stringify(body) } : {}),
      })
      assert.ok(answer.ok, `${method} ${path}: ${answer.status}`)
      // biome-ignore lint/suspicious/noExplicitAny: answers are arbitrary JSON
      return (await answer.json()) as any
    }
    const [heard, other] = (await api('GET', '/v1/projects?limit=2')).data
    const listen = startCli(['listen', '--forward-to', receiver.url, '--projects', heard.name], {
      WORKGRAPH_URL: base,
      WORKGRAPH_API_KEY: key,
    })
    const [, endpoint] = await listen.waitFor(/Temporary endpoint (whk_\w+)/)
    assert.deepEqual((await api('GET', `/v1/webhooks/${endpoint}`)).project_ids, [heard.id])
    const outside = await api('POST', '/v1/tasks', { title: 'Elsewhere', project_id: other.id })
    const inside = await api('POST', '/v1/tasks', { title: 'In it', project_id: heard.id })
    await listen.waitFor(/task\.created\s+\S+\s+→ 204/)
    // Events are fanned out in the order they were made: the later one was, so the earlier too.
    const deliveries = await api('GET', `/v1/webhooks/${endpoint}/deliveries`)
    assert.equal(deliveries.data.length, 1)
    assert.equal(receiver.received.length, 1)
    const delivered = JSON.parse(receiver.received[0]?.body ?? '{}')
    assert.equal(delivered.data.object.id, inside.id)
    assert.notEqual(delivered.data.object.id, outside.id)
    listen.child.kill('SIGINT')
    assert.equal(await listen.exit(), 0)
  } finally {
    await receiver.close()
    server.child.kill('SIGTERM')
    await server.exit()
  }
})

// The loopback port the temporary endpoint delivers to, read from the endpoint itself.
async function receiverPort(base: string, key: string, endpoint: string): Promise<string> {
  const answer = await fetch(`${base}/v1/webhooks/${endpoint}`, {
    headers: { authorization: `Bearer ${key}` },
  })
  return new URL(((await answer.json()) as { url: string }).url).port
}

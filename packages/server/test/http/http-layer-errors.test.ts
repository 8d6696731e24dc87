import assert from 'node:assert/strict'
import type { AddressInfo } from 'node:net'
import { after, before, test } from 'node:test'
import { PROBLEMS } from '../../src/api/problem-catalogue.ts'
import { importOk, smallBundle, tokenOf } from '../harness/bundles.ts'
import { type RawResponse, rawRequest } from '../harness/raw-http.ts'
import { startTestApp, type TestApp } from '../harness/test-app.ts'

// Requests Node's HTTP parser refuses never reach Fastify, and `inject` skips that parser: these
// go over a real socket to a listening server.

let t: TestApp
let port: number
let token: string
before(async () => {
  t = await startTestApp()
  token = tokenOf(await importOk(t.db.db, smallBundle()), 'alice-key')
  await t.app.listen({ port: 0, host: '127.0.0.1' })
  port = (t.app.server.address() as AddressInfo).port
})
after(() => t.close())

const send = (lines: string[], body = '') =>
  rawRequest(port, `${lines.join('\r\n')}\r\n\r\n${body}`)

function assertProblem(reply: RawResponse, status: number, code: string, closes = true) {
  const what = JSON.stringify(reply)
  assert.equal(reply.status, status, what)
  assert.match(reply.headers['content-type'] ?? '', /^application\/problem\+json/, what)
  const body = JSON.parse(reply.body)
  assert.equal(body.code, code, what)
  assert.equal(body.status, status, what)
  assert.equal(PROBLEMS[code as keyof typeof PROBLEMS]?.status, status, what)
  assert.equal(body.type, `${t.deps.config.publicUrl}/errors/${code}`, what)
  assert.match(body.request_id, /^req_[0-9a-z]{26}$/, what)
  assert.equal(Number(reply.headers['content-length']), Buffer.byteLength(reply.body), what)
  if (closes) {
    assert.equal(reply.headers.connection, 'close', what)
    assert.ok(reply.closed, `${what}: the connection stayed open`)
  }
}

const HOST = 'Host: 127.0.0.1'

test('requests Node refuses to parse are problem+json 400s that close the connection', async () => {
  const malformed: [string, string[], string?][] = [
    [
      'both Content-Length and Transfer-Encoding',
      ['POST /v1/tasks HTTP/1.1', HOST, 'Content-Length: 5', 'Transfer-Encoding: chunked'],
      '0\r\n\r\n',
    ],
    ['a Content-Length in words', ['POST /v1/tasks HTTP/1.1', HOST, 'Content-Length: five']],
    ['a negative Content-Length', ['POST /v1/tasks HTTP/1.1', HOST, 'Content-Length: -1']],
    [
      'two different Content-Lengths',
      ['POST /v1/tasks HTTP/1.1', HOST, 'Content-Length: 1', 'Content-Length: 2'],
      'xx',
    ],
    ['a NUL in a header value', ['GET /v1/projects HTTP/1.1', HOST, 'X-Note: a\u0000b']],
    ['a space in a header name', ['GET /v1/projects HTTP/1.1', HOST, 'X Note: a']],
    ['a bad chunk size', ['POST /v1/tasks HTTP/1.1', HOST, 'Transfer-Encoding: chunked'], 'zz\r\n'],
    ['an unknown method', ['BREW /v1/projects HTTP/1.1', HOST]],
  ]
  for (const [name, lines, body] of malformed) {
    const reply = await send(lines, body)
    assert.doesNotThrow(() => assertProblem(reply, 400, 'invalid_request'), name)
  }
})

test('headers larger than the limit are a problem+json 431', async () => {
  const reply = await send(['GET /v1/projects HTTP/1.1', HOST, `X-Big: ${'x'.repeat(20_000)}`])
  assertProblem(reply, 431, 'request_header_fields_too_large')
})

test('an Expect other than 100-continue is a problem+json 417; 100-continue still works', async () => {
  const reply = await send(['GET /v1/projects HTTP/1.1', HOST, 'Expect: tea'])
  assertProblem(reply, 417, 'expectation_failed')
  const body = '{}'
  const continued = await send(
    [
      'POST /v1/search HTTP/1.1',
      HOST,
      'Expect: 100-continue',
      'Content-Type: application/json',
      `Content-Length: ${body.length}`,
      `Authorization: Bearer ${token}`,
      'Connection: close',
    ],
    body,
  )
  assertProblem(continued, 422, 'validation_failed')
})

test('a CONNECT is a problem+json 405: this server is no proxy', async () => {
  const reply = await send(['CONNECT example.test:443 HTTP/1.1', 'Host: example.test:443'])
  assertProblem(reply, 405, 'method_not_allowed')
  assert.equal(reply.headers.allow, '')
})

test('an HTTP/1.1 request without a Host header is a problem+json 400; HTTP/1.0 needs none', async () => {
  assertProblem(await send(['GET /v1/projects HTTP/1.1']), 400, 'invalid_request')
  assertProblem(
    await send(['GET /v1/projects HTTP/1.1', HOST, 'Host: example.test']),
    400,
    'invalid_request',
  )
  const old = await send(['GET /healthz HTTP/1.0'])
  assert.equal(old.status, 200, JSON.stringify(old))
})

test('two Authorization headers are a 400 invalid_request, whichever comes first', async () => {
  for (const pair of [
    [`Bearer ${token}`, 'Bearer wg_key_other'],
    ['Bearer wg_key_other', `Bearer ${token}`],
    [`Bearer ${token}`, `Bearer ${token}`],
  ]) {
    const reply = await send([
      'GET /v1/projects HTTP/1.1',
      HOST,
      `Authorization: ${pair[0]}`,
      `authorization: ${pair[1]}`,
      'Connection: close',
    ])
    assertProblem(reply, 400, 'invalid_request', false)
    assert.match(JSON.parse(reply.body).detail, /Authorization/)
  }
  const one = await send([
    'GET /v1/projects HTTP/1.1',
    HOST,
    `Authorization: Bearer ${token}`,
    'Connection: close',
  ])
  assert.equal(one.status, 200, JSON.stringify(one))
})

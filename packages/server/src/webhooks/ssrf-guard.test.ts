import assert from 'node:assert/strict'
import type { LookupAddress } from 'node:dns'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, before, describe, test } from 'node:test'
import { request } from 'undici'
import {
  checkEndpointUrl,
  createGuardedAgent,
  isBlockedAddress,
  isLoopbackAddress,
} from './ssrf-guard.ts'

const strict = { allowHttpLoopback: false }
const dev = { allowHttpLoopback: true }

describe('registration', () => {
  const refused = [
    'http://169.254.169.254/latest/meta-data/',
    'https://169.254.169.254/',
    'https://[::ffff:169.254.169.254]/',
    'https://[::ffff:a9fe:a9fe]/',
    'https://2852039166/',
    'https://0251.0376.0251.0376/',
    'https://0xa9fea9fe/',
    'https://0x7f000001/',
    'https://127.1/',
    'https://0.0.0.0/',
    'https://[::]/',
    'https://[::1]/',
    'https://localhost/',
    'https://localhost./',
    'https://foo.localhost/',
    'https://printer.local/',
    'https://db.internal/',
    'https://router.home.arpa/',
    'https://metadata.google.internal/',
    'https://[fd00:ec2::254]/',
    'https://[64:ff9b::a9fe:a9fe]/',
    'https://[64:ff9b::169.254.169.254]/',
    'https://[2002:a9fe:a9fe::]/',
    'https://100.64.0.1/',
    'https://10.0.0.1/',
    'https://172.16.5.4/',
    'https://192.168.1.1/',
    'https://198.18.0.1/',
    'https://224.0.0.1/',
    'https://255.255.255.255/',
    'https://[fe80::1]/',
    'https://[ff02::1]/',
    'https://user:pass@example.com/',
    'https://example.com:22/',
    'https://example.com:80/',
    'https://example.com/#fragment',
    'ftp://example.com/',
    'http://example.com/',
    'https://intranet/',
    'javascript:alert(1)',
    'not a url',
    `https://example.com/${'a'.repeat(2100)}`,
  ]
  for (const url of refused) {
    test(`refuses ${url.slice(0, 60)}`, () => {
      assert.equal(checkEndpointUrl(url, strict).ok, false)
      assert.equal(
        checkEndpointUrl(url, dev).ok,
        url.startsWith('https://[::1]') ||
          url.startsWith('https://127.1') ||
          url.startsWith('https://0x7f000001') ||
          url.startsWith('https://localhost'),
      )
    })
  }

  test('accepts public https URLs', () => {
    for (const url of [
      'https://example.com/hook',
      'https://hooks.example.com:8443/x?y=1',
      'https://93.184.216.34/',
      'https://[2606:4700::1111]/hook',
    ])
      assert.deepEqual(checkEndpointUrl(url, strict), { ok: true, url: new URL(url).href })
  })

  test('plain http only to loopback, and only with the development setting', () => {
    for (const url of [
      'http://127.0.0.1:4000/hook',
      'http://[::1]:4000/',
      'http://localhost:4000/',
    ]) {
      assert.equal(checkEndpointUrl(url, strict).ok, false, url)
      assert.equal(checkEndpointUrl(url, dev).ok, true, url)
    }
    assert.equal(checkEndpointUrl('http://example.com/', dev).ok, false)
  })

  test('every blocked destination gets the same reason', () => {
    const reasons = new Set(
      [
        'https://10.0.0.1/',
        'https://[::1]/',
        'https://metadata.google.internal/',
        'https://2852039166/',
      ].map((url) => {
        const check = checkEndpointUrl(url, strict)
        return check.ok ? '' : check.reason
      }),
    )
    assert.equal(reasons.size, 1)
  })
})

test('address classification', () => {
  for (const address of [
    '127.0.0.1',
    '10.1.2.3',
    '169.254.169.254',
    '0.0.0.0',
    '::',
    '::1',
    '::ffff:127.0.0.1',
    '::ffff:a9fe:a9fe',
    '::127.0.0.1',
    '64:ff9b::a9fe:a9fe',
    '2002:a9fe:a9fe::',
    'fd00:ec2::254',
    'fe80::1%eth0',
    'not-an-ip',
  ])
    assert.equal(isBlockedAddress(address), true, address)
  for (const address of ['8.8.8.8', '93.184.216.34', '2606:4700::1111', '::ffff:8.8.8.8'])
    assert.equal(isBlockedAddress(address), false, address)
  assert.equal(isLoopbackAddress('127.0.0.2'), true)
  assert.equal(isLoopbackAddress('::1'), true)
  assert.equal(isLoopbackAddress('::ffff:127.0.0.1'), true)
  assert.equal(isLoopbackAddress('10.0.0.1'), false)
})

describe('connect time', () => {
  let server: Server
  let port: number
  let connections = 0
  before(async () => {
    server = createServer((_request, response) => response.end('reached'))
    server.on('connection', () => connections++)
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
    port = (server.address() as AddressInfo).port
  })
  after(() => new Promise<void>((done) => server.close(() => done())))

  // A resolver that answers what the test says, like a rebinding DNS server would.
  const resolvingTo = (...addresses: LookupAddress[]) =>
    // biome-ignore lint/suspicious/noExplicitAny: the dns.lookup overloads are not worth spelling out
    ((_host: string, _options: unknown, callback: any) => callback(null, addresses)) as any

  async function attempt(url: string, agent: ReturnType<typeof createGuardedAgent>) {
    try {
      const response = await request(url, { dispatcher: agent })
      return { status: response.statusCode, body: await response.body.text() }
    } catch (error) {
      const codes: string[] = []
      for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause)
        codes.push(String((e as { code?: unknown }).code))
      return { codes }
    } finally {
      await agent.close()
    }
  }

  test('a name that resolves to loopback is refused before any connection', async () => {
    const before = connections
    const result = await attempt(
      `http://rebind.example:${port}/`,
      createGuardedAgent({
        allowLoopback: false,
        lookup: resolvingTo({ address: '127.0.0.1', family: 4 }),
      }),
    )
    assert.ok(
      'codes' in result && result.codes?.includes('ERR_DESTINATION_NOT_ALLOWED'),
      JSON.stringify(result),
    )
    assert.equal(connections, before)
  })

  test('one internal address among public ones refuses the name (fail closed)', async () => {
    const result = await attempt(
      `http://mixed.example:${port}/`,
      createGuardedAgent({
        allowLoopback: false,
        lookup: resolvingTo({ address: '93.184.216.34', family: 4 }, { address: '::1', family: 6 }),
      }),
    )
    assert.ok('codes' in result && result.codes?.includes('ERR_DESTINATION_NOT_ALLOWED'))
  })

  test('an IP literal is checked too (no lookup happens for it)', async () => {
    const before = connections
    const result = await attempt(
      `http://127.0.0.1:${port}/`,
      createGuardedAgent({ allowLoopback: false }),
    )
    assert.ok('codes' in result && result.codes?.includes('ERR_DESTINATION_NOT_ALLOWED'))
    assert.equal(connections, before)
  })

  test('loopback is reachable when development allows it', async () => {
    const result = await attempt(
      `http://dev.example:${port}/`,
      createGuardedAgent({
        allowLoopback: true,
        lookup: resolvingTo({ address: '127.0.0.1', family: 4 }),
      }),
    )
    assert.deepEqual(result, { status: 200, body: 'reached' })
  })
})

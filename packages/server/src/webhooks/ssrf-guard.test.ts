import assert from 'node:assert/strict'
import type { LookupAddress, LookupOptions, lookup } from 'node:dns'
import { once } from 'node:events'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { getDefaultAutoSelectFamily, setDefaultAutoSelectFamily } from 'node:net'
import { after, before, describe, it } from 'node:test'
import { type Agent, request } from 'undici'
import { isBlockedAddress, isLoopbackAddress } from './internal-address.ts'
import { checkEndpointUrl, createGuardedAgent, DestinationNotAllowedError } from './ssrf-guard.ts'

const UNIFORM = "The URL's destination is not allowed."
const HTTPS = 'The URL must use https.'
const PORT = 'The port must be 443, 8443, or 1024 and above.'

// Addresses whose IPv6 spelling hides an internal destination: each embeds a refused IPv4
// address (169.254.169.254, 127.0.0.1 or 10.0.0.1), or sits in a range refused whole.
const HIDDEN_INTERNAL_V6 = [
  '::ffff:0:a9fe:a9fe', // IPv4-translated 169.254.169.254
  '::ffff:0:169.254.169.254',
  '::ffff:0:7f00:1',
  '::ffff:0:a00:1',
  '::a9fe:a9fe', // IPv4-compatible
  '::10.0.0.1',
  '::127.0.0.1', // not loopback: ipaddr.js alone would read it as ::ffff:127.0.0.1
  '64:ff9b::a00:1', // NAT64
  '64:ff9b::127.0.0.1',
  '64:ff9b:1::808:808', // local-use NAT64: where the IPv4 address sits is the operator's choice
  '2002:a00:1::1', // 6to4
  '2002:7f00:1::',
  '2001::1', // Teredo
  '2001:0:4136:e378:8000:63bf:3fff:fdd2',
  '2001:0:4136:e378:8000:63bf:80ff:fffe', // Teredo client 127.0.0.1, obfuscated
  'fec0::1', // site-local
  'fed0::a9fe:a9fe',
  'feff:ffff::1',
]

// IPv4 spellings that are not dotted decimal; the URL parser turns them into 127.0.0.1.
const ODD_LOOPBACK_V4 = ['2130706433', '0x7f000001', '0177.0.0.1', '0x7f.1', '127.1', '127.0.1']

describe('checkEndpointUrl', () => {
  // [url, the reason it is refused]; every internal destination shares one reason on purpose.
  const refused: [string, string][] = [
    ['http://169.254.169.254/latest/meta-data/', HTTPS],
    ['https://169.254.169.254/', UNIFORM],
    ['https://[::ffff:169.254.169.254]/', UNIFORM],
    ['https://[::ffff:a9fe:a9fe]/', UNIFORM],
    ['https://2852039166/', UNIFORM],
    ['https://0251.0376.0251.0376/', UNIFORM],
    ['https://0xa9fea9fe/', UNIFORM],
    ['https://0x7f000001/', UNIFORM],
    ['https://127.1/', UNIFORM],
    ['https://0.0.0.0/', UNIFORM],
    ['https://255.255.255.255/', UNIFORM],
    ['https://[::]/', UNIFORM],
    ['https://[::1]/', UNIFORM],
    ['https://localhost/', UNIFORM],
    ['https://localhost./', UNIFORM],
    ['https://LOCALHOST/', UNIFORM],
    ['https://foo.localhost/', UNIFORM],
    ['https://printer.local/', UNIFORM],
    ['https://db.internal/', UNIFORM],
    ['https://nas.home.arpa/', UNIFORM],
    ['https://metadata.google.internal/', UNIFORM],
    ['https://[fd00:ec2::254]/', UNIFORM],
    ['https://[64:ff9b::a9fe:a9fe]/', UNIFORM],
    ['https://[64:ff9b::169.254.169.254]/', UNIFORM],
    ['https://[2002:a9fe:a9fe::]/', UNIFORM],
    ['https://100.64.0.1/', UNIFORM],
    ['https://10.0.0.1/', UNIFORM],
    ['https://172.16.5.4/', UNIFORM],
    ['https://192.168.1.1/', UNIFORM],
    ['https://[fe80::1]/', UNIFORM],
    ...HIDDEN_INTERNAL_V6.map((address): [string, string] => [`https://[${address}]/`, UNIFORM]),
    ...ODD_LOOPBACK_V4.map((host): [string, string] => [`https://${host}/`, UNIFORM]),
    ['https://[::ffff:0:a9fe:a9fe]:8443/latest/meta-data/', UNIFORM],
    ['https://intranet/', UNIFORM],
    ['https://intranet./', UNIFORM],
    ['https://user:pass@example.com/', 'The URL must not contain a user name or password.'],
    ['https://user@example.com/', 'The URL must not contain a user name or password.'],
    ['https://example.com:22/', 'The port must be 443, 8443, or 1024 and above.'],
    ['https://example.com:25/', 'The port must be 443, 8443, or 1024 and above.'],
    ['https://example.com:80/', 'The port must be 443, 8443, or 1024 and above.'],
    ['https://example.com/hook#frag', 'The URL must not contain a fragment.'],
    [`https://example.com/${'a'.repeat(2048)}`, 'The URL is longer than 2048 characters.'],
    ['ftp://example.com/', HTTPS],
    ['http://example.com/', HTTPS],
    ['javascript:alert(1)', HTTPS],
    ['not a url', 'The URL is not a valid absolute URL.'],
  ]
  for (const [url, reason] of refused) {
    it(`refuses ${url.slice(0, 60)}`, () => {
      assert.deepEqual(checkEndpointUrl(url, { allowHttpLoopback: false }), { ok: false, reason })
    })
  }

  it('refuses plain http to a non-loopback host even when http loopback is allowed', () => {
    assert.deepEqual(checkEndpointUrl('http://example.com/', { allowHttpLoopback: true }), {
      ok: false,
      reason: HTTPS,
    })
    assert.equal(checkEndpointUrl('http://10.0.0.1:4000/', { allowHttpLoopback: true }).ok, false)
    assert.equal(checkEndpointUrl('http://localhost:22/', { allowHttpLoopback: true }).ok, false)
  })

  // The port rule holds for loopback too; a port left out is the scheme's (http 80, https 443).
  const loopbackDefaultPort = [
    'http://127.0.0.1/',
    'http://127.0.0.1/hook',
    'http://localhost/',
    'http://localhost:80/',
    'http://[::1]/',
    'http://[::ffff:127.0.0.1]/',
    'http://2130706433/',
  ]
  for (const url of loopbackDefaultPort) {
    it(`refuses ${url} (port 80) even when http loopback is allowed`, () => {
      assert.deepEqual(checkEndpointUrl(url, { allowHttpLoopback: true }), {
        ok: false,
        reason: PORT,
      })
    })
  }

  it('accepts loopback on the implied https port when http loopback is allowed', () => {
    assert.deepEqual(checkEndpointUrl('https://localhost/', { allowHttpLoopback: true }), {
      ok: true,
      url: 'https://localhost/',
    })
  })

  it('refuses the other spellings of internal addresses when http loopback is allowed', () => {
    for (const address of HIDDEN_INTERNAL_V6) {
      const url = `https://[${address}]:4000/`
      assert.equal(checkEndpointUrl(url, { allowHttpLoopback: true }).ok, false, url)
    }
  })

  const accepted: [string, string][] = [
    ['https://example.com/hook', 'https://example.com/hook'],
    ['https://hooks.example.com:8443/x?y=1', 'https://hooks.example.com:8443/x?y=1'],
    ['https://93.184.216.34/', 'https://93.184.216.34/'],
    ['https://Example.COM:443/hook', 'https://example.com/hook'],
    ['https://example.com:1024/', 'https://example.com:1024/'],
    ['https://[2606:4700::1111]/', 'https://[2606:4700::1111]/'],
    // Forms that embed a public IPv4 address are judged by it (DNS64 networks answer with these).
    ['https://[64:ff9b::8.8.8.8]/', 'https://[64:ff9b::808:808]/'],
    ['https://[2002:808:808::1]/', 'https://[2002:808:808::1]/'],
    ['https://[::ffff:0:808:808]/', 'https://[::ffff:0:808:808]/'],
  ]
  for (const [url, normalised] of accepted) {
    it(`accepts ${url}`, () => {
      assert.deepEqual(checkEndpointUrl(url, { allowHttpLoopback: false }), {
        ok: true,
        url: normalised,
      })
    })
  }

  const devLoopback = ['http://127.0.0.1:4000/hook', 'http://[::1]:4000/', 'http://localhost:4000/']
  for (const url of devLoopback) {
    it(`accepts ${url} only when http loopback is allowed, and says which setting allows it`, () => {
      assert.deepEqual(checkEndpointUrl(url, { allowHttpLoopback: true }), { ok: true, url })
      const refused = checkEndpointUrl(url, { allowHttpLoopback: false })
      assert.equal(refused.ok, false)
      assert.match(
        refused.ok ? '' : refused.reason,
        /^The URL must use https\. .*WEBHOOKS_ALLOW_HTTP_LOOPBACK=true/,
      )
    })
  }
})

describe('isBlockedAddress', () => {
  const blocked = [
    '0.0.0.0',
    '10.1.2.3',
    '100.64.0.1',
    '100.127.255.255',
    '127.0.0.1',
    '169.254.169.254',
    '172.16.0.1',
    '172.31.255.255',
    '192.0.0.8',
    '192.0.2.1',
    '192.88.99.1',
    '192.168.0.1',
    '198.18.0.1',
    '198.19.255.255',
    '198.51.100.1',
    '203.0.113.1',
    '224.0.0.1',
    '239.255.255.250',
    '240.0.0.1',
    '255.255.255.255',
    '::',
    '::1',
    '[::1]',
    '0:0:0:0:0:0:0:1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::FFFF:A9FE:A9FE',
    '::ffff:169.254.169.254',
    '::ffff:10.0.0.1',
    '::127.0.0.1',
    '::a9fe:a9fe',
    '64:ff9b::a9fe:a9fe',
    '64:ff9b:1::1',
    '2002:a9fe:a9fe::',
    '100::1',
    '2001:db8::1',
    ...HIDDEN_INTERNAL_V6,
    '2001:2::1', // benchmarking
    '2001:20::1', // ORCHIDv2: not a network address at all
    '3fff::1', // documentation
    '4000::1', // outside 2000::/3, the only global unicast block
    '5f00::1',
    '64:ff9c::1', // just past NAT64's prefix, and so outside 2000::/3
    'e000::1',
    ...ODD_LOOPBACK_V4, // the URL parser normalises these; anything else must not guess
    '::ffff:0x7f.0.0.1',
    '010.0.0.1',
    'fc00::1',
    'fd00:ec2::254',
    'fe80::1',
    'fe80::1%eth0',
    'febf::1',
    'ff02::1',
    'example.com',
    'not an ip',
    '',
    '1.2.3',
    '[::1',
  ]
  for (const address of blocked) {
    it(`blocks ${JSON.stringify(address)}`, () => assert.equal(isBlockedAddress(address), true))
  }

  const allowed = [
    '8.8.8.8',
    '1.1.1.1',
    '93.184.216.34',
    '100.63.255.255',
    '100.128.0.0',
    '172.15.255.255',
    '172.32.0.0',
    '192.169.0.1',
    '198.17.255.255',
    '198.20.0.0',
    '223.255.255.255',
    '2606:4700::1111',
    '[2606:4700::1111]',
    '2001:4860:4860::8888',
    '::ffff:8.8.8.8',
    '::ffff:808:808',
    '2001:db9::1',
    '2001:200::1', // just past the IETF protocol block 2001::/23
    '::ffff:0:808:808',
    '64:ff9b::808:808',
    '64:ff9b::8.8.8.8',
    '2002:808:808::1',
    '::8.8.8.8',
  ]
  for (const address of allowed) {
    it(`allows ${address}`, () => assert.equal(isBlockedAddress(address), false))
  }
})

describe('isLoopbackAddress', () => {
  it('recognises loopback in every spelling', () => {
    for (const address of [
      '127.0.0.1',
      '127.255.0.1',
      '::1',
      '[::1]',
      '::1%lo',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
    ])
      assert.equal(isLoopbackAddress(address), true, address)
  })
  it('does not call other addresses loopback', () => {
    for (const address of [
      '10.0.0.1',
      '128.0.0.1',
      '::',
      '::2',
      '::ffff:8.8.8.8',
      'localhost',
      '',
      '127.1',
      '2130706433',
      // Translated, NAT64 and 6to4 forms of 127.0.0.1 are not this host's loopback.
      '::ffff:0:7f00:1',
      '64:ff9b::7f00:1',
      '2002:7f00:1::',
      '::127.0.0.1',
    ])
      assert.equal(isLoopbackAddress(address), false, address)
  })
})

type LookupCallback = (
  error: Error | null,
  address: string | LookupAddress[],
  family?: number,
) => void

// A stand-in for dns.lookup that answers every name with fixed addresses, in the shape asked for
// (a real resolver's contract; a fake that always returns an array would hide shape bugs).
function fakeLookup(addresses: LookupAddress[], asked: string[] = []): typeof lookup {
  const fake = (hostname: string, options: LookupOptions, callback: LookupCallback) => {
    asked.push(hostname)
    const [first] = addresses
    if (options.all) callback(null, addresses)
    else callback(null, first?.address ?? '', first?.family)
  }
  return fake as unknown as typeof lookup
}

const v4 = (address: string): LookupAddress => ({ address, family: 4 })
const v6 = (address: string): LookupAddress => ({ address, family: 6 })

function errorCode(error: unknown): unknown {
  const e = error as { code?: unknown; cause?: { code?: unknown } }
  return e.code ?? e.cause?.code
}

describe('createGuardedAgent at dial time', () => {
  const server = createServer((_req, res) => res.end('ok'))
  let connections = 0
  let port = 0
  const agents: Agent[] = []
  server.on('connection', () => {
    connections++
  })

  before(async () => {
    server.listen(0, '127.0.0.1')
    await once(server, 'listening')
    port = (server.address() as AddressInfo).port
  })
  after(async () => {
    await Promise.all(agents.map((agent) => agent.close()))
    server.closeAllConnections()
    server.close()
  })

  const agent = (options: Parameters<typeof createGuardedAgent>[0]) => {
    const created = createGuardedAgent(options)
    agents.push(created)
    return created
  }

  // Asserts the request is refused by the guard and no socket reached the listener.
  async function assertRefused(url: string, dispatcher: Agent) {
    const before = connections
    await assert.rejects(request(url, { dispatcher }), (error) => {
      assert.equal(errorCode(error), 'ERR_DESTINATION_NOT_ALLOWED')
      return true
    })
    assert.equal(connections, before, 'no connection may reach the listener')
  }

  it('refuses a public name that resolves to loopback (DNS rebinding)', async () => {
    const asked: string[] = []
    const dispatcher = agent({ allowLoopback: false, lookup: fakeLookup([v4('127.0.0.1')], asked) })
    await assertRefused(`http://rebind.example:${port}/`, dispatcher)
    await assertRefused(`https://rebind.example:${port}/`, dispatcher)
    assert.ok(asked.includes('rebind.example'), 'the guarded lookup was used')
  })

  it('fails closed when any resolved address is internal', async () => {
    const lookup = fakeLookup([v4('93.184.216.34'), v6('::1')])
    await assertRefused(`http://mixed.example:${port}/`, agent({ allowLoopback: false, lookup }))
  })

  it('refuses IP-literal hosts, which never reach the lookup', async () => {
    const asked: string[] = []
    const dispatcher = agent({ allowLoopback: false, lookup: fakeLookup([], asked) })
    await assertRefused(`http://127.0.0.1:${port}/`, dispatcher)
    await assertRefused(`https://127.0.0.1:${port}/`, dispatcher)
    await assertRefused(`http://[::1]:${port}/`, dispatcher)
    await assertRefused(`http://[::ffff:7f00:1]:${port}/`, dispatcher)
    assert.deepEqual(asked, [])
  })

  it('refuses names that resolve to IPv4-embedding, Teredo or site-local addresses', async () => {
    for (const address of HIDDEN_INTERNAL_V6) {
      const lookup = fakeLookup([v6(address)])
      await assertRefused(`http://hidden.example:${port}/`, agent({ allowLoopback: false, lookup }))
      await assertRefused(`http://hidden.example:${port}/`, agent({ allowLoopback: true, lookup }))
    }
  })

  it('refuses those spellings as IP literals, which never reach the lookup', async () => {
    for (const address of HIDDEN_INTERNAL_V6) {
      const dispatcher = agent({
        allowLoopback: true,
        lookup: fakeLookup([]),
        connectTimeoutMs: 500,
      })
      await assertRefused(`http://[${address}]:${port}/`, dispatcher)
    }
  })

  it('refuses odd IPv4 spellings of loopback, which the URL parser turns into 127.0.0.1', async () => {
    const asked: string[] = []
    const dispatcher = agent({ allowLoopback: false, lookup: fakeLookup([], asked) })
    for (const host of ODD_LOOPBACK_V4) await assertRefused(`http://${host}:${port}/`, dispatcher)
    assert.deepEqual(asked, [])
  })

  it('refuses a resolver answer that is not a plain IP address', async () => {
    for (const address of ['127.1', '2130706433', '0x7f000001']) {
      const lookup = fakeLookup([v4(address)])
      await assertRefused(`http://odd.example:${port}/`, agent({ allowLoopback: false, lookup }))
    }
  })

  it('applies the port rule to loopback when the port is the scheme default', async () => {
    const lookup = fakeLookup([v4('127.0.0.1')])
    const dispatcher = agent({ allowLoopback: true, lookup, connectTimeoutMs: 500 })
    await assertRefused('http://dev.example/', dispatcher)
    await assertRefused('http://127.0.0.1/', dispatcher)
    await assertRefused('http://[::1]/', dispatcher)
    await assertRefused('http://dev.example:22/', dispatcher)
  })

  it('allowing loopback does not open the other internal ranges', async () => {
    const lookup = fakeLookup([v4('10.0.0.1')])
    await assertRefused(`http://private.example:${port}/`, agent({ allowLoopback: true, lookup }))
    await assertRefused(`http://169.254.169.254:${port}/`, agent({ allowLoopback: true, lookup }))
  })

  it('passes resolver errors through unchanged', async () => {
    const failing = (_host: string, _options: LookupOptions, callback: LookupCallback) =>
      callback(Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' }), [])
    const dispatcher = agent({ allowLoopback: false, lookup: failing as unknown as typeof lookup })
    await assert.rejects(request(`http://missing.example:${port}/`, { dispatcher }), (error) => {
      assert.equal(errorCode(error), 'ENOTFOUND')
      return true
    })
  })

  // net.connect asks for an array when it races address families and for one address when it
  // does not; the guard must answer both, so the allowed path is run in each mode.
  for (const autoSelectFamily of [true, false]) {
    it(`reaches an allowed loopback listener (autoSelectFamily ${autoSelectFamily})`, async () => {
      const previous = getDefaultAutoSelectFamily()
      setDefaultAutoSelectFamily(autoSelectFamily)
      try {
        const before = connections
        const asked: string[] = []
        const lookup = fakeLookup([v4('127.0.0.1')], asked)
        const response = await request(`http://dev.example:${port}/`, {
          dispatcher: agent({ allowLoopback: true, lookup }),
        })
        assert.equal(response.statusCode, 200)
        assert.equal(await response.body.text(), 'ok')
        assert.equal(connections, before + 1)
        assert.deepEqual(asked, ['dev.example'])
      } finally {
        setDefaultAutoSelectFamily(previous)
      }
    })
  }

  it('raises an error that carries only the uniform message', () => {
    const error = new DestinationNotAllowedError()
    assert.equal(error.code, 'ERR_DESTINATION_NOT_ALLOWED')
    assert.equal(error.message, UNIFORM)
    assert.ok(error instanceof Error)
  })
})

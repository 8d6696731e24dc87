import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns'
import { isIP } from 'node:net'
import { Agent, buildConnector } from 'undici'

/*
 * Webhook URLs are chosen by tenants, so every request they cause could be aimed at our own
 * network (research/webhooks.md §2.4). Registration refuses what is plainly internal; the real
 * control is at connect time, where every address a name resolves to is checked and the socket
 * goes to the address that was checked (no second lookup that could rebind).
 */

/** Why a destination was refused; tenants only ever see the uniform message. */
export const DESTINATION_NOT_ALLOWED = 'destination_not_allowed'

// One reason for every internal range, so the error cannot be used to map our network.
const UNIFORM_REASON = "The URL's destination is not allowed."

/** An error a refused destination raises at connect time; `code` is 'ERR_DESTINATION_NOT_ALLOWED'. */
export class DestinationNotAllowedError extends Error {
  readonly code = 'ERR_DESTINATION_NOT_ALLOWED'
  constructor() {
    super(UNIFORM_REASON)
    this.name = 'DestinationNotAllowedError'
  }
}

function v4ToBigInt(address: string): bigint {
  return address.split('.').reduce((value, part) => (value << 8n) | BigInt(Number(part)), 0n)
}

// The 128-bit value of an IPv6 address; expanded by hand because string prefixes miss the many
// spellings of one address (`::ffff:169.254.169.254` is `::ffff:a9fe:a9fe`).
function v6ToBigInt(address: string): bigint {
  let text = address
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)
  if (dotted?.[1]) {
    const v4 = v4ToBigInt(dotted[1])
    text = `${text.slice(0, -dotted[1].length)}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`
  }
  const [head = '', tail] = text.split('::')
  const headParts = head ? head.split(':') : []
  const tailParts = tail ? tail.split(':') : []
  const missing = tail === undefined ? 0 : 8 - headParts.length - tailParts.length
  const groups = [...headParts, ...Array<string>(missing).fill('0'), ...tailParts]
  return groups.reduce((value, group) => (value << 16n) | BigInt(`0x${group || '0'}`), 0n)
}

type Range = { first: bigint; shift: bigint }

const range = (bits: number, value: bigint, prefix: number): Range => {
  const shift = BigInt(bits - prefix)
  return { first: value >> shift, shift }
}
const inAny = (value: bigint, ranges: Range[]) => ranges.some((r) => value >> r.shift === r.first)

const BLOCKED_V4 = (
  [
    ['0.0.0.0', 8],
    ['10.0.0.0', 8],
    ['100.64.0.0', 10],
    ['127.0.0.0', 8],
    ['169.254.0.0', 16],
    ['172.16.0.0', 12],
    ['192.0.0.0', 24],
    ['192.0.2.0', 24],
    ['192.88.99.0', 24],
    ['192.168.0.0', 16],
    ['198.18.0.0', 15],
    ['198.51.100.0', 24],
    ['203.0.113.0', 24],
    ['224.0.0.0', 4],
    ['240.0.0.0', 4], // reserved, and 255.255.255.255 broadcast
  ] as const
).map(([first, prefix]) => range(32, v4ToBigInt(first), prefix))

// IPv4-mapped addresses (::ffff:0:0/96) are not listed: they are unmapped and checked as IPv4.
const BLOCKED_V6 = (
  [
    ['::', 96], // unspecified, loopback and the deprecated IPv4-compatible forms
    ['64:ff9b::', 96], // NAT64: reaches any IPv4 address, private ones included
    ['64:ff9b:1::', 48], // local-use NAT64
    ['100::', 64], // discard
    ['2001:db8::', 32], // documentation
    ['2002::', 16], // 6to4: embeds an IPv4 address
    ['fc00::', 7], // unique local (AWS's fd00:ec2::254 metadata address too)
    ['fe80::', 10], // link-local
    ['ff00::', 8], // multicast
  ] as const
).map(([first, prefix]) => range(128, v6ToBigInt(first), prefix))

const MAPPED_V4 = range(128, 0xffffn << 32n, 96)

// Brackets come from URL hosts and zone ids (`fe80::1%eth0`) from some resolvers; neither is
// part of the address.
function bare(address: string): string {
  return address
    .replace(/^\[|\]$/g, '')
    .replace(/%.*$/, '')
    .toLowerCase()
}

// The address as [family, value], with IPv4-mapped IPv6 unmapped; null when not an IP at all.
function classify(address: string): [4 | 6, bigint] | null {
  const text = bare(address)
  const family = isIP(text)
  if (family === 4) return [4, v4ToBigInt(text)]
  if (family !== 6) return null
  const value = v6ToBigInt(text)
  return inAny(value, [MAPPED_V4]) ? [4, value & 0xffffffffn] : [6, value]
}

/** Whether an IP address (v4 or v6 text, as from dns.lookup or URL hostname, brackets allowed) is in a blocked range. */
export function isBlockedAddress(address: string): boolean {
  const ip = classify(address)
  if (!ip) return true // fail closed: what we cannot read we cannot vouch for
  return inAny(ip[1], ip[0] === 4 ? BLOCKED_V4 : BLOCKED_V6)
}

/** Whether the address is loopback (127/8, ::1, or IPv4-mapped loopback). */
export function isLoopbackAddress(address: string): boolean {
  const ip = classify(address)
  if (!ip) return false
  return ip[0] === 4 ? ip[1] >> 24n === 127n : ip[1] === 1n
}

const BLOCKED_NAMES = /(^|\.)(localhost|local|internal|home\.arpa)$/

/** Registration-time check of a webhook URL. */
export function checkEndpointUrl(
  raw: string,
  options: { allowHttpLoopback: boolean },
): { ok: true; url: string } | { ok: false; reason: string } {
  if (raw.length > 2048) return { ok: false, reason: 'The URL is longer than 2048 characters.' }
  let url: URL
  try {
    // WHATWG parsing turns `2852039166`, `0x7f000001` and `127.1` into dotted IPv4 for us.
    url = new URL(raw)
  } catch {
    return { ok: false, reason: 'The URL is not a valid absolute URL.' }
  }
  const host = bare(url.hostname).replace(/\.$/, '')
  const loopback = host === 'localhost' || isLoopbackAddress(host)
  const devLoopback = options.allowHttpLoopback && loopback
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && devLoopback))
    return { ok: false, reason: 'The URL must use https.' }
  if (url.username || url.password)
    return { ok: false, reason: 'The URL must not contain a user name or password.' }
  if (url.hash) return { ok: false, reason: 'The URL must not contain a fragment.' }
  const port = url.port === '' ? null : Number(url.port)
  if (port !== null && port !== 443 && port !== 8443 && port < 1024)
    return { ok: false, reason: 'The port must be 443, 8443, or 1024 and above.' }
  if (devLoopback) return { ok: true, url: url.href }
  const blocked = isIP(host)
    ? isBlockedAddress(host)
    : !host.includes('.') || BLOCKED_NAMES.test(host) || host === 'metadata.google.internal'
  return blocked ? { ok: false, reason: UNIFORM_REASON } : { ok: true, url: url.href }
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void

/** An undici Agent whose DNS lookup checks every resolved address before a socket opens. */
export function createGuardedAgent(options: {
  allowLoopback: boolean
  connectTimeoutMs?: number
  lookup?: typeof dnsLookup
}): Agent {
  const allowed = (address: string) =>
    !isBlockedAddress(address) || (options.allowLoopback && isLoopbackAddress(address))
  const resolve = options.lookup ?? dnsLookup
  // net.connect calls this with `all: true` when it races families (autoSelectFamily, on by
  // default since Node 20) and without it otherwise, so both answer shapes are produced.
  const guardedLookup = (
    hostname: string,
    lookupOptions: LookupOptions | number,
    callback: LookupCallback,
  ) => {
    const asked = typeof lookupOptions === 'number' ? { family: lookupOptions } : lookupOptions
    resolve(hostname, { ...asked, all: true }, (error, addresses) => {
      if (error) return callback(error, [])
      const list = addresses as LookupAddress[]
      // Fail closed: one internal address among public ones refuses the whole name, since the
      // socket may try any of them.
      if (list.length === 0 || !list.every((entry) => allowed(entry.address)))
        return callback(new DestinationNotAllowedError(), [])
      if (asked.all) return callback(null, list)
      const [first] = list
      return callback(null, first?.address ?? '', first?.family)
    })
  }
  const connector = buildConnector({
    timeout: options.connectTimeoutMs ?? 5000,
    lookup: guardedLookup,
  })
  return new Agent({
    connect: (connectOptions, callback) => {
      // net.connect skips the lookup for an IP literal, so literals are checked here instead.
      const host = bare(connectOptions.hostname)
      if (isIP(host) && !allowed(host)) {
        callback(new DestinationNotAllowedError(), null)
        return
      }
      connector(connectOptions, callback)
    },
  })
}

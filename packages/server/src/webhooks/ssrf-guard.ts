import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns'
import { isIP } from 'node:net'
import { Agent, buildConnector } from 'undici'

/*
 * Webhook URLs are chosen by tenants, so every request they cause could be aimed at our own
 * network (research/webhooks.md §2.4). Registration refuses what is plainly internal; the real
 * control is at connect time, where every address a name resolves to is checked and the socket
 * goes to the address that was checked (no second lookup that could rebind).
 */

/** The error code tenants see for any refused destination, whichever rule matched. */
export const DESTINATION_NOT_ALLOWED = 'destination_not_allowed'

const UNIFORM_REASON = "The URL's destination is not allowed."

/** A refused destination at connect time. */
export class DestinationNotAllowedError extends Error {
  readonly code = 'ERR_DESTINATION_NOT_ALLOWED'
  constructor() {
    super(UNIFORM_REASON)
    this.name = 'DestinationNotAllowedError'
  }
}

// [first address, prefix length] of every blocked IPv4 range.
const BLOCKED_V4: [string, number][] = [
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
  ['240.0.0.0', 4],
]

// Blocked IPv6 ranges as [first address, prefix length]; mapped IPv4 is unmapped first.
const BLOCKED_V6: [string, number][] = [
  ['::', 96], // unspecified, loopback and the deprecated IPv4-compatible forms
  ['64:ff9b::', 96], // NAT64: reaches any IPv4 address, private ones included
  ['64:ff9b:1::', 48], // local-use NAT64
  ['100::', 64], // discard
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4: embeds an IPv4 address
  ['fc00::', 7], // unique local (AWS's fd00:ec2::254 metadata address too)
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
]

function v4ToBigInt(address: string): bigint {
  return address.split('.').reduce((value, part) => (value << 8n) | BigInt(Number(part)), 0n)
}

// The 128-bit value of an IPv6 address (with an embedded dotted IPv4 tail allowed).
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
  const missing = 8 - headParts.length - tailParts.length
  const groups = [...headParts, ...Array(tail === undefined ? 0 : missing).fill('0'), ...tailParts]
  return groups.reduce((value, group) => (value << 16n) | BigInt(`0x${group || '0'}`), 0n)
}

function inRange(value: bigint, bits: number, first: bigint, prefix: number): boolean {
  const shift = BigInt(bits - prefix)
  return value >> shift === first >> shift
}

function blockedV4(address: string): boolean {
  const value = v4ToBigInt(address)
  return BLOCKED_V4.some(([first, prefix]) => inRange(value, 32, v4ToBigInt(first), prefix))
}

const MAPPED_PREFIX = 0xffffn << 32n

/** Whether an IP address (v4 or v6, brackets allowed) is in a blocked range; non-IPs are. */
export function isBlockedAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '')
  const family = isIP(bare)
  if (family === 4) return blockedV4(bare)
  if (family !== 6) return true
  const value = v6ToBigInt(bare.toLowerCase())
  if (value >> 32n === MAPPED_PREFIX >> 32n) {
    const v4 = value & 0xffffffffn
    return blockedV4([24n, 16n, 8n, 0n].map((shift) => String((v4 >> shift) & 0xffn)).join('.'))
  }
  return BLOCKED_V6.some(([first, prefix]) => inRange(value, 128, v6ToBigInt(first), prefix))
}

/** Whether the address is loopback (127/8, ::1, or IPv4-mapped loopback). */
export function isLoopbackAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '').toLowerCase()
  if (isIP(bare) === 4) return bare.startsWith('127.')
  if (isIP(bare) !== 6) return false
  const value = v6ToBigInt(bare)
  return (
    value === 1n || (value >> 32n === MAPPED_PREFIX >> 32n && (value & 0xff000000n) === 0x7f000000n)
  )
}

const BLOCKED_NAMES = /(^|\.)(localhost|local|internal|home\.arpa)$/

/** Registration-time check of a webhook URL: a reason to show, or the normalised URL. */
export function checkEndpointUrl(
  raw: string,
  options: { allowHttpLoopback: boolean },
): { ok: true; url: string } | { ok: false; reason: string } {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    return { ok: false, reason: 'The URL is not a valid absolute URL.' }
  }
  if (raw.length > 2048) return { ok: false, reason: 'The URL is longer than 2048 characters.' }
  const host = url.hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase()
  const loopback = isLoopbackAddress(host) || host === 'localhost'
  if (url.protocol === 'http:') {
    if (!(options.allowHttpLoopback && loopback))
      return { ok: false, reason: 'The URL must use https.' }
  } else if (url.protocol !== 'https:') return { ok: false, reason: 'The URL must use https.' }
  if (url.username || url.password)
    return { ok: false, reason: 'The URL must not contain a user name or password.' }
  if (url.hash) return { ok: false, reason: 'The URL must not contain a fragment.' }
  const port = url.port === '' ? null : Number(url.port)
  if (port !== null && port !== 443 && port !== 8443 && port < 1024)
    return { ok: false, reason: 'The port must be 443, 8443, or 1024 and above.' }
  if (options.allowHttpLoopback && loopback) return { ok: true, url: url.href }
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
  const guardedLookup = (
    hostname: string,
    lookupOptions: LookupOptions,
    callback: LookupCallback,
  ) => {
    resolve(hostname, { ...lookupOptions, all: true }, (error, addresses) => {
      if (error) return callback(error, [])
      const list = addresses as LookupAddress[]
      // Fail closed: one internal address among public ones refuses the whole name.
      if (list.length === 0 || !list.every((entry) => allowed(entry.address)))
        return callback(new DestinationNotAllowedError(), [])
      if (lookupOptions.all) return callback(null, list)
      const [first] = list
      return callback(null, first?.address ?? '', first?.family)
    })
  }
  const connector = buildConnector({
    timeout: options.connectTimeoutMs ?? 5000,
    lookup: guardedLookup,
  } as buildConnector.BuildOptions)
  return new Agent({
    connect: (connectOptions, callback) => {
      // net.connect skips the lookup for an IP literal: check literals here.
      const host = connectOptions.hostname.replace(/^\[|\]$/g, '')
      if (isIP(host) && !allowed(host)) {
        callback(new DestinationNotAllowedError(), null)
        return
      }
      connector(connectOptions, callback)
    },
  })
}

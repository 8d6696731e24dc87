import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns'
import { isIP } from 'node:net'
import { Agent, buildConnector } from 'undici'
import { bareHost, isBlockedAddress, isLoopbackAddress } from './internal-address.ts'

/*
 * Webhook URLs are chosen by tenants, so every request they cause could be aimed at our own
 * network. Registration refuses what is plainly internal; the real control is at connect time,
 * where every address a name resolves to is checked and the socket goes to the address that was
 * checked (no second lookup that could rebind). Which addresses are internal: refused-ranges.ts.
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

// Low ports are where internal services listen (SSH, SMTP, plain-HTTP admin pages); loopback
// allowed for development is no exception. An empty port is the scheme's own: the URL parser
// also empties an explicit one that equals it (`http://localhost:80/`).
function isAllowedPort(protocol: string, port: string): boolean {
  const number = port === '' ? (protocol === 'http:' ? 80 : 443) : Number(port)
  return number === 443 || number === 8443 || number >= 1024
}

const BLOCKED_NAMES = /(^|\.)(localhost|local|internal|home\.arpa)$/

// Why plain http to a loopback address is refused, and the setting that allows it.
const LOOPBACK_REASON =
  'The URL must use https. Plain http to this machine (localhost, 127.0.0.1, [::1]) is allowed ' +
  'when the server runs with WEBHOOKS_ALLOW_HTTP_LOOPBACK=true, as `serve --demo` does.'

/**
 * The scheme checkEndpointUrl accepts, as a pattern for the OpenAPI document: `https:` (in any
 * case, after the spaces and controls URL parsing drops), or `http:` too where loopback http is
 * allowed. The rest of the rules (no user name, no fragment, ports, addresses) it only describes.
 */
export function endpointUrlPattern(options: { allowHttpLoopback: boolean }): string {
  return `^[\\u0000-\\u0020]*[Hh][Tt][Tt][Pp]${options.allowHttpLoopback ? '[Ss]?' : '[Ss]'}:`
}

/** Registration-time check of a webhook URL. */
export function checkEndpointUrl(
  raw: string,
  options: { allowHttpLoopback: boolean },
): { ok: true; url: string } | { ok: false; reason: string } {
  if (raw.length > 2048) return { ok: false, reason: 'The URL is longer than 2048 characters.' }
  let url: URL
  try {
    // WHATWG parsing turns `2852039166`, `0x7f000001`, `0177.0.0.1` and `127.1` into dotted
    // IPv4, and IPv6 into its shortest form, for us.
    url = new URL(raw)
  } catch {
    return { ok: false, reason: 'The URL is not a valid absolute URL.' }
  }
  const host = bareHost(url.hostname).replace(/\.$/, '')
  const loopback = host === 'localhost' || isLoopbackAddress(host)
  const devLoopback = options.allowHttpLoopback && loopback
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && devLoopback)) {
    // Plain http to this machine is the one refusal a setting lifts: name it.
    const lifted = url.protocol === 'http:' && loopback
    return { ok: false, reason: lifted ? LOOPBACK_REASON : 'The URL must use https.' }
  }
  if (url.username || url.password)
    return { ok: false, reason: 'The URL must not contain a user name or password.' }
  if (url.hash) return { ok: false, reason: 'The URL must not contain a fragment.' }
  if (!isAllowedPort(url.protocol, url.port))
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

/** An undici Agent that checks the port and every resolved address before a socket opens. */
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
      // The port rule is applied again for whatever URL reaches the agent; net.connect skips the
      // lookup for an IP literal, so literals are checked here instead.
      const host = bareHost(connectOptions.hostname)
      const { protocol, port } = connectOptions
      if (!isAllowedPort(protocol, port) || (isIP(host) && !allowed(host))) {
        callback(new DestinationNotAllowedError(), null)
        return
      }
      connector(connectOptions, callback)
    },
  })
}

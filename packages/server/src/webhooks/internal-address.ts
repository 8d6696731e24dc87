import { isIP } from 'node:net'
import ipaddr from 'ipaddr.js'
import { GLOBAL_UNICAST_V6, IPV4_CARRIERS, REFUSED_V4, REFUSED_V6 } from './refused-ranges.ts'

/** A host as written in a URL or by a resolver, without brackets, zone id or capitals. */
export function bareHost(host: string): string {
  // Brackets come from URL hosts and zone ids (`fe80::1%eth0`) from some resolvers; neither is
  // part of the address.
  return host
    .replace(/^\[|\]$/g, '')
    .replace(/%.*$/, '')
    .toLowerCase()
}

// Only the plain spellings net.isIP accepts are read. ipaddr.js would also read `127.1` or
// `0x7f000001`; URL hosts arrive already normalised, so such a spelling here is a reason to refuse,
// not to guess. IPv6 is first rewritten in hex by the URL parser, because ipaddr.js 2.5 reads
// `::127.0.0.1` (IPv4-compatible) as `::ffff:127.0.0.1` (IPv4-mapped), another address.
function parseAddress(address: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  const text = bareHost(address)
  const family = isIP(text)
  if (family === 4) return ipaddr.IPv4.parse(text)
  if (family !== 6) return null
  const hex = URL.parse(`http://[${text}]/`)?.hostname
  return hex ? ipaddr.IPv6.parse(bareHost(hex)) : null
}

// ipaddr.js's own list of special ranges is a second opinion: a range it knows and the table
// does not is refused as well, so a newer list can only refuse more.
const special = (ip: ipaddr.IPv4 | ipaddr.IPv6) => ip.range() !== 'unicast'

function isRefusedV4(ip: ipaddr.IPv4): boolean {
  return REFUSED_V4.some((range) => ip.match(range)) || special(ip)
}

function isRefusedV6(ip: ipaddr.IPv6): boolean {
  if (REFUSED_V6.some((range) => ip.match(range))) return true
  const carrier = IPV4_CARRIERS.find(({ range }) => ip.match(range))
  if (carrier) return isRefusedV4(carrier.ipv4(ip))
  return !ip.match(GLOBAL_UNICAST_V6) || special(ip)
}

/**
 * Whether an IP address (v4 or v6 text, as from dns.lookup or URL hostname, brackets allowed) is in
 * a blocked range.
 */
export function isBlockedAddress(address: string): boolean {
  const ip = parseAddress(address)
  if (!ip) return true // fail closed: what we cannot read we cannot vouch for
  return ip instanceof ipaddr.IPv4 ? isRefusedV4(ip) : isRefusedV6(ip)
}

/** Whether the address is loopback (127/8, ::1, or IPv4-mapped loopback). */
export function isLoopbackAddress(address: string): boolean {
  const ip = parseAddress(address)
  if (!ip) return false
  // Only the mapped form is this host's own: the other IPv4 carriers lead through a translator or
  // a tunnel, so their 127.0.0.1 is someone else's.
  const own = ip instanceof ipaddr.IPv6 && ip.isIPv4MappedAddress() ? ip.toIPv4Address() : ip
  return own.range() === 'loopback'
}

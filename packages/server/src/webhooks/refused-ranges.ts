import ipaddr from 'ipaddr.js'

/*
 * The address ranges a webhook may never reach, one reason a line. docs/webhooks.md (SSRF) lists
 * the same ranges for readers; keep the two in step.
 */

const v4 = (cidr: string) => ipaddr.IPv4.parseCIDR(cidr)
const v6 = (cidr: string) => ipaddr.IPv6.parseCIDR(cidr)

/** IPv4 ranges refused outright. */
export const REFUSED_V4: readonly [ipaddr.IPv4, number][] = [
  v4('0.0.0.0/8'), // "this network": 0.0.0.0 reaches this host
  v4('10.0.0.0/8'), // private
  v4('100.64.0.0/10'), // carrier-grade NAT: shared space inside a provider's network
  v4('127.0.0.0/8'), // loopback
  v4('169.254.0.0/16'), // link-local, where cloud metadata services answer
  v4('172.16.0.0/12'), // private
  v4('192.0.0.0/24'), // IETF protocol assignments
  v4('192.0.2.0/24'), // documentation
  v4('192.88.99.0/24'), // the retired 6to4 relay anycast
  v4('192.168.0.0/16'), // private
  v4('198.18.0.0/15'), // benchmarking: lab networks
  v4('198.51.100.0/24'), // documentation
  v4('203.0.113.0/24'), // documentation
  v4('224.0.0.0/4'), // multicast
  v4('240.0.0.0/4'), // reserved, ending with the broadcast address 255.255.255.255
]

/** IPv6 ranges refused outright, whatever they may carry. */
export const REFUSED_V6: readonly [ipaddr.IPv6, number][] = [
  v6('::/128'), // unspecified: reaches this host
  v6('::1/128'), // loopback
  v6('64:ff9b:1::/48'), // local-use NAT64: the operator picks where the IPv4 address sits
  v6('100::/64'), // discard-only
  v6('2001::/32'), // Teredo: the IPv4 address inside is obfuscated, and the relay is anyone's
  v6('2001::/23'), // IETF protocol assignments (benchmarking, ORCHID, AMT): no web servers
  v6('2001:db8::/32'), // documentation
  v6('3fff::/20'), // documentation
  v6('fc00::/7'), // unique-local, the IPv6 private range (AWS metadata answers at fd00:ec2::254)
  v6('fe80::/10'), // link-local
  v6('fec0::/10'), // site-local: deprecated, yet still routed inside some networks
  v6('ff00::/8'), // multicast
]

/** Public IPv6 unicast is allocated from this block only; anything outside it is refused too. */
export const GLOBAL_UNICAST_V6: [ipaddr.IPv6, number] = v6('2000::/3')

// The IPv4 address in bytes [from, from + 4) of an IPv6 address.
const ipv4At = (from: number) => (ip: ipaddr.IPv6) =>
  new ipaddr.IPv4(ip.toByteArray().slice(from, from + 4))

/**
 * IPv6 forms that carry an IPv4 address, and where it sits. Such an address is judged by the IPv4
 * address alone: it leads there (through a translator or a tunnel), and a public one is how
 * IPv6-only networks (DNS64) reach IPv4-only receivers.
 */
export const IPV4_CARRIERS: readonly {
  range: [ipaddr.IPv6, number]
  ipv4: (ip: ipaddr.IPv6) => ipaddr.IPv4
}[] = [
  // IPv4-mapped: the socket goes to the IPv4 address itself.
  { range: v6('::ffff:0:0/96'), ipv4: (ip) => ip.toIPv4Address() },
  // IPv4-translated (stateless translation).
  { range: v6('::ffff:0:0:0/96'), ipv4: ipv4At(12) },
  // NAT64, well-known prefix.
  { range: v6('64:ff9b::/96'), ipv4: ipv4At(12) },
  // IPv4-compatible (deprecated); :: and ::1 are refused as themselves before this is read.
  { range: v6('::/96'), ipv4: ipv4At(12) },
  // 6to4: the IPv4 address follows the 2002 prefix.
  { range: v6('2002::/16'), ipv4: ipv4At(2) },
]

/**
 * Whether a URL's host name is a loopback address, where plain http never leaves the machine:
 * `localhost`, 127.0.0.0/8 or ::1 (as `new URL` spells host names: lower case, IPv4 in dotted
 * decimal, IPv6 in brackets).
 */
export function isLoopbackHost(hostname: string): boolean {
  if (hostname === 'localhost' || hostname === '[::1]') return true
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname)
}

import type { Config } from '../config.ts'
import { isLoopbackHost } from '../lib/loopback.ts'

/**
 * A warning for `serve` when invitations are emailed but their links name this machine only:
 * PUBLIC_URL on a loopback host gives every emailed link an address that opens on the server's
 * own machine, never on an invitee's. Empty when there is nothing to warn of.
 */
export function mailLinkHint(config: Pick<Config, 'smtpUrl' | 'publicUrl'>): string[] {
  if (config.smtpUrl === undefined || !isLoopbackHost(new URL(config.publicUrl).hostname)) return []
  return [
    ``,
    `Invitations are emailed with links to ${config.publicUrl}, which opens only on this machine:`,
    `set PUBLIC_URL to the address your team reaches the server at (docs/configuration.md).`,
  ]
}

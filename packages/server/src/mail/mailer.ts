import nodemailer, { type Transporter } from 'nodemailer'
import type { Config } from '../config.ts'

/** What became of an email: sent, refused or unreachable, or no SMTP server configured. */
export type MailOutcome = 'sent' | 'failed' | 'not_configured'

/** One plain-text email. */
export interface Mail {
  readonly to: string
  readonly subject: string
  readonly text: string
}

// One transport per configuration: it holds no connection between messages (no pool).
const transports = new WeakMap<Config, Transporter>()

function transportOf(config: Config, url: string): Transporter {
  let transport = transports.get(config)
  if (!transport) {
    transport = nodemailer.createTransport({
      url,
      // Bounded, so that a request waiting on an unreachable server answers in time.
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 20_000,
      // Nodemailer's own logs could carry the message, and so an invitation's link.
      logger: false,
      debug: false,
    })
    transports.set(config, transport)
  }
  return transport
}

/**
 * Sends one email through `WORKGRAPH_SMTP_URL` (docs/configuration.md). Never throws: a failure
 * is an outcome, and `onFailure` hears only its error code, never the message or the server's
 * reply, which may quote what was sent.
 */
export async function sendMail(
  config: Config,
  mail: Mail,
  onFailure: (code: string) => void = () => undefined,
): Promise<MailOutcome> {
  if (config.smtpUrl === undefined) return 'not_configured'
  try {
    await transportOf(config, config.smtpUrl).sendMail({
      from: config.mailFrom,
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
    })
    return 'sent'
  } catch (error) {
    const code = (error as { code?: unknown }).code
    onFailure(typeof code === 'string' ? code : 'unknown')
    return 'failed'
  }
}

import type { AddressInfo } from 'node:net'
import { SMTPServer } from 'smtp-server'

/** One email as the SMTP server received it. */
export interface ReceivedMail {
  from: string
  to: string[]
  /** The whole message, headers and body, as sent. */
  raw: string
}

/** An SMTP server on loopback that accepts every message and keeps it. */
export interface SmtpInbox {
  /** The `WORKGRAPH_SMTP_URL` that reaches it. */
  url: string
  received: ReceivedMail[]
  close(): Promise<void>
}

/**
 * Starts an SMTP server on 127.0.0.1 at a free port (no TLS, no authentication). `refuses` names
 * recipients it turns away, as a full mailbox or an unknown user would be.
 */
export async function startSmtpInbox(
  refuses: (address: string) => boolean = () => false,
): Promise<SmtpInbox> {
  const received: ReceivedMail[] = []
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (refuses(address.address)) callback(new Error('mailbox unavailable'))
      else callback()
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (chunk: Buffer) => chunks.push(chunk))
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        })
        callback()
      })
    },
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.server.address() as AddressInfo
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

/**
 * The text of a single-part plain-text email, as a mail program shows it: the body decoded from
 * its transfer encoding, so a long line (a link) is whole again.
 */
export function mailText(raw: string): string {
  const split = raw.indexOf('\r\n\r\n')
  const headers = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ')
  const body = raw.slice(split + 4)
  const encoding = /^content-transfer-encoding:\s*(\S+)/im.exec(headers)?.[1]?.toLowerCase()
  if (encoding === 'base64') return Buffer.from(body, 'base64').toString('utf8')
  if (encoding !== 'quoted-printable') return body.replace(/\r\n/g, '\n')
  const bytes = body
    .replace(/=\r\n/g, '')
    .replace(/\r\n/g, '\n')
    .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)))
  return Buffer.from(bytes, 'latin1').toString('utf8')
}

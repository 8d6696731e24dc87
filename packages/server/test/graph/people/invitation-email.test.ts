import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import pino from 'pino'
import type { ImportResult } from '../../../src/bundle/import-bundle.ts'
import { importOk, tokenOf } from '../../harness/bundles.ts'
import { peopleBundle } from '../../harness/people-bundle.ts'
import { type SmtpInbox, startSmtpInbox } from '../../harness/smtp-inbox.ts'
import { client, startTestApp, type TestApp } from '../../harness/test-app.ts'

// Invitations by email through a real SMTP server on this machine (the smtp-server package):
// sent after the commit, a failure leaves the invitation, and no log line holds the link.

let inbox: SmtpInbox
// Recipients the server refuses, as a full mailbox or an unknown user would be.
const REFUSED = 'refused@example.test'

let t: TestApp
let ws: ImportResult
const logs: string[] = []

before(async () => {
  inbox = await startSmtpInbox((address) => address === REFUSED)
  const logger = pino({ level: 'trace' }, { write: (line: string) => void logs.push(line) })
  t = await startTestApp({
    env: {
      WORKGRAPH_SMTP_URL: inbox.url,
      WORKGRAPH_MAIL_FROM: 'Workgraph <invites@example.test>',
      LOG_LEVEL: 'trace',
    },
    logger,
  })
  ws = await importOk(t.db.db, peopleBundle())
})
after(async () => {
  await t.close()
  await inbox.close()
})

const as = (key: string) => client(t.app, tokenOf(ws, key))

test('an invitation is emailed with its link after the commit', async () => {
  const reply = await as('adam-key').post('/v1/invitations', {
    email: 'mailme@example.test',
    role: 'member',
  })
  assert.equal(reply.status, 201, reply.body)
  assert.equal(reply.json.email, 'sent')
  const mail = inbox.received.find((message) => message.to.includes('mailme@example.test'))
  assert.ok(mail, 'the SMTP server received the invitation')
  assert.equal(mail.from, 'invites@example.test')
  const token = /wg_inv_[0-9A-Za-z]+/.exec(reply.json.url)?.[0] as string
  assert.ok(mail.raw.includes(reply.json.url), 'the email carries the link')
  assert.match(mail.raw, /Subject: Join Test workspace on Workgraph/)
  assert.match(mail.raw, /Adam Admin invited you/)
  // Opening the link and a refused form log the route, never the token in its path.
  const page = await client(t.app).get(new URL(reply.json.url).pathname, { accept: 'text/html' })
  assert.equal(page.status, 200)
  const forged = await client(t.app).post(new URL(reply.json.url).pathname, 'name=x', {
    'content-type': 'application/x-www-form-urlencoded',
  })
  assert.equal(forged.status, 403)
  assert.ok(
    logs.some((line) => line.includes('/join/:token')),
    'the join page is logged',
  )
  assert.ok(!logs.some((line) => line.includes(token)), 'no log line holds the link')
})

test('a refused email leaves the invitation, says failed, and logs no link', async () => {
  const reply = await as('adam-key').post('/v1/invitations', { email: REFUSED, role: 'guest' })
  assert.equal(reply.status, 201, reply.body)
  assert.equal(reply.json.email, 'failed')
  const token = /wg_inv_[0-9A-Za-z]+/.exec(reply.json.url)?.[0] as string
  const pending = await as('adam-key').get('/v1/invitations?limit=100')
  assert.ok(pending.json.data.some((item: { id: string }) => item.id === reply.json.invitation.id))
  const warning = logs.find((line) => line.includes('invitation email not sent'))
  assert.ok(warning, 'the failure is logged')
  assert.match(warning, new RegExp(reply.json.invitation.id))
  assert.ok(!logs.some((line) => line.includes(token)), 'no log line holds the link')
})

test('an unreachable SMTP server is a failed email, not a failed invitation', async () => {
  const down = await startTestApp({
    database: t.db,
    // Nothing listens on the port of a server that was closed.
    env: { WORKGRAPH_SMTP_URL: 'smtp://127.0.0.1:1' },
  })
  try {
    const reply = await client(down.app, tokenOf(ws, 'olive-key')).post('/v1/invitations', {
      email: 'unreachable@example.test',
      role: 'member',
    })
    assert.equal(reply.status, 201, reply.body)
    assert.equal(reply.json.email, 'failed')
    assert.match(reply.json.url, /\/join\/wg_inv_/)
  } finally {
    await down.close()
  }
})

test('without SMTP the answer says not_configured; a dry run sends nothing', async () => {
  const plain = await startTestApp({ database: t.db })
  try {
    const reply = await client(plain.app, tokenOf(ws, 'olive-key')).post('/v1/invitations', {
      email: 'by-hand@example.test',
      role: 'member',
    })
    assert.equal(reply.json.email, 'not_configured')
  } finally {
    await plain.close()
  }
  const count = inbox.received.length
  const dry = await as('olive-key').post('/v1/invitations?dry_run=true', {
    email: 'dry@example.test',
    role: 'member',
  })
  assert.equal(dry.status, 200)
  assert.equal(dry.json.result.email, null)
  assert.equal(inbox.received.length, count)
})

test('WORKGRAPH_SMTP_URL must be an smtp URL, and the error never echoes it', async () => {
  const { loadConfig } = await import('../../../src/config.ts')
  assert.throws(
    () => loadConfig({ WORKGRAPH_SMTP_URL: 'https://user:s3cret@mail.example.test' }),
    (error: Error) => /smtp:\/\//.test(error.message) && !error.message.includes('s3cret'),
  )
  assert.equal(
    loadConfig({ WORKGRAPH_SMTP_URL: 'smtps://u:p@mail.example.test:465' }).smtpUrl,
    'smtps://u:p@mail.example.test:465',
  )
})

import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import type { ImportResult } from '../../src/bundle/import-bundle.ts'
import { type ListeningApp, startListeningApp } from '../harness/browser-app.ts'
import { importOk, tokenOf } from '../harness/bundles.ts'
import { runCaptured } from '../harness/cli.ts'
import { peopleBundle } from '../harness/people-bundle.ts'

// `workgraph invite` (README, "The CLI"): the API's invitation from a terminal, its one-time
// link printed once; the API's rules refuse what they refuse, as a failure with their reason.

let t: ListeningApp
let ws: ImportResult
before(async () => {
  t = await startListeningApp()
  ws = await importOk(t.db.db, peopleBundle())
})
after(() => t.close())

const env = (key: string) => ({ WORKGRAPH_URL: t.origin, WORKGRAPH_API_KEY: tokenOf(ws, key) })

test('an admin invites from a terminal: the link is printed, and it opens the join page', async () => {
  const { code, stdout } = await runCaptured(
    ['invite', '--email', 'cli@example.test', '--role', 'guest', '--name', 'Cli Guest'],
    env('adam-key'),
  )
  assert.equal(code, 0, stdout)
  assert.match(stdout, /^Invited cli@example\.test as guest \(inv_\w+\)\./)
  assert.match(stdout, /No SMTP server is configured: pass the link on yourself\./)
  const link = /^ {2}(\S+\/join\/wg_inv_\S+)$/m.exec(stdout)?.[1]
  assert.ok(link, stdout)
  const page = await fetch(new URL(new URL(link).pathname, t.origin))
  assert.equal(page.status, 200)
  assert.match(await page.text(), /Cli Guest/)
})

test('a member is refused with the rule’s reason, and a bad role is a usage error', async () => {
  const refused = await runCaptured(['invite', '--email', 'nope@example.test'], env('alice-key'))
  assert.equal(refused.code, 1)
  assert.match(refused.stderr, /403 Only the workspace's owners and admins/)
  const usage = await runCaptured(
    ['invite', '--email', 'x@example.test', '--role', 'owner'],
    env('adam-key'),
  )
  assert.equal(usage.code, 2)
  assert.match(usage.stderr, /--role is one of member, guest, admin/)
  const pending = await fetch(`${t.origin}/v1/invitations`, {
    headers: { authorization: `Bearer ${tokenOf(ws, 'adam-key')}` },
  })
  const emails = ((await pending.json()) as { data: { email: string }[] }).data.map((i) => i.email)
  assert.ok(!emails.includes('nope@example.test') && !emails.includes('x@example.test'))
})

import assert from 'node:assert/strict'
import { createHmac } from 'node:crypto'
import { after, before, test } from 'node:test'
import { openMigratedDatabase } from '../../src/cli/open-database.ts'
import { loadConfig } from '../../src/config.ts'
import type { DatabaseHandle } from '../../src/db/connect.ts'
import { WebhookDispatcher } from '../../src/webhooks/webhook-dispatcher.ts'
import { Browser, formOn } from '../harness/browser.ts'
import { type CliData, cliData, freePort, runCaptured, terminalPath } from '../harness/cli.ts'
import { DocBlocks, runShell } from '../harness/doc-blocks.ts'
import { type Received, type Receiver, startReceiver } from '../harness/receiver.ts'
import { mailText, type SmtpInbox, startSmtpInbox } from '../harness/smtp-inbox.ts'
import { startTestApp, type TestApp } from '../harness/test-app.ts'

// docs/getting-started-team.md, followed as a new team would: each command of the page runs as
// written, curl in a shell, and what a reader fills in from an answer (an id, the key init
// printed) is filled in the same way. Three things differ, each for a reason: the invitees' links
// are opened and their forms posted by a scripted browser; the webhook's URL is a receiver on
// this machine (http on loopback, which the app allows here) instead of the page's https one; and
// the test adds work of its own in a second project, which the page's endpoint must not hear of.
//
// init runs first, in this process through runCli (what `npx workgraph init` runs), and has
// closed the database when it returns; only then does the app open the same data folder (or, on
// PostgreSQL, the same database). That is the page's own order, init before serve, and the one
// the embedded database needs: one process at a time holds its folder. The app is the real one,
// listening on a port, so curl, the browser and the invitation links reach it over HTTP; its
// webhooks are delivered by a WebhookDispatcher this test drains, so what the receiver has heard
// is complete when it is read.

const docs = new DocBlocks('getting-started-team.md')
const PASSWORD = 'a long passphrase for ada'
const BEA = { email: 'bea@acme.example', name: 'Bea Santos', password: 'bea chose this one' }
const KOFI = { email: 'kofi@acme.example', name: 'Kofi Mensah', password: 'kofi chose his own' }

let cli: CliData
let origin: string
let port: number
let smtp: SmtpInbox
let receiver: Receiver
let handle: DatabaseHandle | undefined
let t: TestApp | undefined
let dispatcher: WebhookDispatcher | undefined

before(async () => {
  cli = await cliData('wg-team-')
  port = await freePort()
  origin = `http://127.0.0.1:${port}`
  smtp = await startSmtpInbox()
  receiver = await startReceiver()
})
after(async () => {
  await dispatcher?.stop(0)
  await t?.close()
  await handle?.close()
  await receiver?.close()
  await smtp?.close()
  await cli?.close()
})

// The words of a command line, as sh reads this page's (double quotes, no escapes).
function words(line: string): string[] {
  return [...line.matchAll(/"([^"]*)"|(\S+)/g)].map((match) => match[1] ?? match[2] ?? '')
}

// Runs a block of the page in a terminal that has run the page's two `export` lines, with the
// placeholders a reader fills in replaced; its answer, parsed.
// biome-ignore lint/suspicious/noExplicitAny: answers are arbitrary JSON
type Json = any
let terminal = ''
async function run(block: string, fill: [string, string][] = []): Promise<Json> {
  let script = block
  for (const [placeholder, value] of fill) {
    assert.ok(script.includes(placeholder), `${placeholder} in ${script}`)
    script = script.replaceAll(placeholder, value)
  }
  assert.doesNotMatch(script, /…/, 'every placeholder is filled in')
  const output = await runShell(`${terminal}\n${script}`, {
    PATH: terminalPath(),
    HOME: process.env.HOME ?? '',
  })
  return JSON.parse(output)
}

// A GET with the owner's key, for what the test checks beside the page's own commands.
async function read(key: string, path: string): Promise<Json> {
  const reply = await fetch(`${origin}${path}`, { headers: { authorization: `Bearer ${key}` } })
  assert.equal(reply.status, 200, path)
  return reply.json()
}

// A write with the owner's key that is the test's own, not the page's.
async function write(key: string, path: string, body: object): Promise<Json> {
  const reply = await fetch(`${origin}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  assert.ok(reply.status < 300, `${path}: ${reply.status}`)
  return reply.json()
}

// Signs in on the dashboard's form; the reply.
async function signIn(browser: Browser, email: string, password: string) {
  const form = formOn((await browser.get('/sign-in')).body, '/sign-in')
  return browser.post(form.action, { ...form.fields, email, password })
}

// Opens an invitation's link in a new browser and joins with the name the page offers and a new
// password: the browser, signed in.
async function join(link: string, who: { name: string; password: string }): Promise<Browser> {
  assert.ok(link.startsWith(`${origin}/join/wg_inv_`), link)
  const browser = new Browser(origin)
  const page = await browser.get(link)
  assert.equal(page.status, 200, page.body)
  const offered = /<input id="name"[^>]*\bvalue="([^"]*)"/.exec(page.body)?.[1]
  assert.equal(offered, who.name, 'the page offers the name the invitation gave')
  const form = formOn(page.body, '/join/')
  const joined = await browser.post(form.action, {
    ...form.fields,
    name: offered,
    password: who.password,
  })
  assert.equal(joined.status, 303, joined.body)
  assert.equal(joined.location, `${origin}/`)
  const home = await browser.get('/')
  assert.equal(home.status, 200)
  assert.ok(home.body.includes(who.name))
  return browser
}

// What an event is about: its object; the objective of a check-in; the project or team whose
// members changed.
function subjectOf(delivery: Received): string {
  const object = delivery.json.data.object
  if (object.type === 'checkin') return object.objective_id
  if (object.type === 'project_membership') return object.project_id
  if (object.type === 'team_membership') return object.team_id
  return object.id
}

test("the team guide, followed as written, takes a new workspace through a team's first hour", async () => {
  // Start your workspace: init on an empty data folder, the password piped.
  const initLine = docs.block('workgraph init').split('\n')[0] as string
  const [npx, workgraph, ...args] = words(initLine.split('#')[0] as string)
  assert.deepEqual([npx, workgraph, args[0]], ['npx', 'workgraph', 'init'])
  const made = await runCaptured([...args, ...cli.target], { PUBLIC_URL: origin }, `${PASSWORD}\n`)
  assert.equal(made.code, 0, made.stderr)
  const key = /API key of Ada Okafor, owner .*: (wg_key_\w+)/.exec(made.stdout)?.[1] as string
  assert.ok(key, made.stdout)

  const [flag, value] = cli.target
  handle = await openMigratedDatabase(
    loadConfig({}, flag === '--data' ? { data: value } : { databaseUrl: value }),
  )
  t = await startTestApp({
    database: { ...handle, url: undefined },
    env: {
      PUBLIC_URL: origin,
      WORKGRAPH_SMTP_URL: smtp.url,
      WORKGRAPH_MAIL_FROM: 'Acme Workgraph <workgraph@acme.example>',
      WEBHOOKS_ALLOW_HTTP_LOOPBACK: 'true',
    },
  })
  await t.app.listen({ port, host: '127.0.0.1' })
  dispatcher = new WebhookDispatcher(t.deps, { random: () => 0.5 })

  // Sign in on the dashboard with the password init was given.
  const ada = new Browser(origin)
  assert.equal((await signIn(ada, 'ada@acme.example', PASSWORD)).status, 303)
  assert.match((await ada.get('/')).body, /<h1>Acme<\/h1>/)

  // The first call; every later command runs in a terminal that has run its two export lines.
  const firstCall = docs
    .block('/v1/me')
    .replace('http://127.0.0.1:8080', origin)
    .replace('wg_key_…', key)
  terminal = firstCall
    .split('\n')
    .filter((line) => line.startsWith('export '))
    .join('\n')
  const me = await run(firstCall)
  assert.equal(me.actor.name, 'Ada Okafor')
  assert.equal(me.actor.role, 'owner')

  // Invite your team: Bea by the link in the answer, Kofi by the link in his email, and one
  // mistyped address, listed and then revoked.
  const invite = docs.block('-X POST "$WORKGRAPH_URL/v1/invitations"')
  const forBea = await run(invite)
  assert.equal(forBea.invitation.email, BEA.email)
  assert.equal(forBea.invitation.role, 'member')
  assert.equal(forBea.invitation.status, 'pending')
  assert.equal(forBea.email, 'sent')
  const forKofi = await run(invite, [
    [BEA.email, KOFI.email],
    [BEA.name, KOFI.name],
  ])
  assert.equal(forKofi.email, 'sent')
  const typo = await run(invite, [[BEA.email, 'bea@acme.exmaple']])
  const listing = docs.block('"$WORKGRAPH_URL/v1/invitations"\n')
  const pending = await run(listing)
  assert.deepEqual(pending.data.map((invitation: Json) => invitation.email).sort(), [
    BEA.email,
    'bea@acme.exmaple',
    KOFI.email,
  ])
  assert.ok(!JSON.stringify(pending).includes('wg_inv_'), 'a list never holds a link')
  const revoked = await run(docs.block('-X DELETE'), [['inv_…', typo.invitation.id]])
  assert.equal(revoked.id, typo.invitation.id)
  assert.equal(revoked.status, 'revoked')
  assert.equal((await new Browser(origin).get(typo.url)).status, 410)

  const mail = smtp.received.find((message) => message.to.includes(KOFI.email))
  assert.ok(mail, 'the SMTP server received the invitation to Kofi')
  const mailed = /^(http\S+\/join\/\S+)$/m.exec(mailText(mail.raw))?.[1] as string
  assert.equal(mailed, forKofi.url)
  const bea = await join(forBea.url, BEA)
  const kofi = await join(mailed, KOFI)
  assert.deepEqual((await run(listing)).data, [])
  const people = (await read(key, '/v1/people')).data as Json[]
  const idOf = (name: string) => people.find((person) => person.name === name)?.id as string
  assert.equal(people.find((person) => person.name === BEA.name)?.role, 'member')
  assert.equal(people.find((person) => person.name === KOFI.name)?.role, 'member')

  // Make a team with both.
  const team = await run(docs.block('/v1/teams"'))
  assert.match(team.id, /^team_/)
  assert.equal(team.name, 'Mobile')
  assert.deepEqual([...team.member_ids].sort(), [idOf(BEA.name), idOf(KOFI.name)].sort())

  // Open a private project: closed to Bea until it is shared with her team.
  const project = await run(docs.block('/v1/projects"'))
  assert.match(project.id, /^prj_/)
  assert.equal(project.visibility, 'private')
  assert.deepEqual(project.member_ids, [me.actor.id])
  assert.equal((await bea.get(project.url)).status, 404)
  const shared = await run(docs.block('/members"'), [['prj_…', project.id]])
  assert.deepEqual(shared.team_ids, [team.id])
  assert.deepEqual(
    [...shared.member_ids].sort(),
    [me.actor.id, idOf(BEA.name), idOf(KOFI.name)].sort(),
  )
  assert.equal((await bea.get(project.url)).status, 200)
  assert.equal((await kofi.get(project.url)).status, 200)

  // Set a goal with two key results.
  const okr = await run(docs.block('/v1/okrs"'))
  assert.match(okr.id, /^obj_/)
  assert.equal(okr.owner_id, me.actor.id)
  assert.equal(okr.team_id, team.id)
  assert.equal(okr.project_id, project.id)
  assert.equal(okr.key_results.length, 2)
  const [firstResult, secondResult] = okr.key_results as Json[]

  // Plan the work: a task for Bea, and a check-in.
  const task = await run(docs.block('/v1/tasks"'))
  assert.match(task.id, /^tsk_/)
  assert.equal(task.project_id, project.id)
  assert.equal(task.assignee_id, idOf(BEA.name))
  const checkin = await run(docs.block('/v1/okr/checkins"'), [['kr_…', firstResult.id]])
  assert.equal(checkin.key_result.id, firstResult.id)
  assert.equal(checkin.key_result.current, 40)
  assert.equal(checkin.key_result.progress, 0.2)
  assert.equal(checkin.objective_progress, 0.1)

  // Work elsewhere in the workspace, before the endpoint exists and after.
  const website = await write(key, '/v1/projects', { name: 'Website refresh' })
  const before = await write(key, '/v1/tasks', {
    title: 'New pricing page',
    project_id: website.id,
  })

  // Hear about it: an endpoint filtered to the project, then the page's completion. The test
  // app's clock stands still until moved, and an endpoint hears only of what happens after it was
  // made: a reader's minutes between two steps pass here too.
  t.clock.advance(60_000)
  const webhook = await run(docs.block('/v1/webhooks"'), [
    ['https://hooks.acme.example/workgraph', receiver.url],
  ])
  assert.deepEqual(webhook.project_ids, [project.id])
  assert.match(webhook.secret, /^whsec_/)
  const done = await run(docs.block('/complete"'), [['tsk_…', task.id]])
  assert.equal(done.status, 'done')

  const inside = [
    await write(key, '/v1/comments', { resource_id: task.id, body: 'Forty so far.' }),
    await write(key, '/v1/okr/checkins', { key_result_id: secondResult.id, value: 97 }),
  ]
  const outside = [
    await write(key, '/v1/tasks', { title: 'Hero image', project_id: website.id }),
    await write(key, `/v1/tasks/${before.id}/complete`, {}),
    await write(key, '/v1/comments', { resource_id: before.id, body: 'Shipped.' }),
  ]
  // A team's events belong to no project.
  await write(key, `/v1/teams/${team.id}/members`, { person_id: 'me' })
  await dispatcher.drain()

  assert.deepEqual(
    receiver.received.map((delivery) => `${delivery.json.type} ${subjectOf(delivery)}`).sort(),
    [
      `task.completed ${task.id}`,
      `comment.created ${inside[0].id}`,
      `okr.checkin ${okr.id}`,
    ].sort(),
  )
  for (const delivery of receiver.received) {
    // Signed as docs/webhooks.md says: HMAC-SHA256 of the raw body, keyed with the whole secret.
    const signature = createHmac('sha256', webhook.secret).update(delivery.raw).digest('hex')
    assert.equal(delivery.headers['x-service-signature'], signature)
    for (const other of [website.id, ...outside.map((record) => record.id)])
      assert.ok(!delivery.raw.toString().includes(other), `nothing about ${other}`)
  }

  assert.deepEqual(docs.unused(), [], `every command of ${docs.page} is followed`)
})

import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { fileURLToPath } from 'node:url'
import {
  IDP_CLIENT_ID,
  IDP_CLIENT_SECRET,
  signInAtProvider,
} from '../../../../examples/identity-provider/identity-provider.ts'
import { Browser } from '../harness/browser.ts'
import { importOk } from '../harness/bundles.ts'
import { type CliProcess, freePort, startProcess, terminalPath } from '../harness/cli.ts'
import { type ListeningTestApp, startListeningTestApp } from '../harness/oauth-flow.ts'
import { mainText } from '../harness/web-visitor.ts'

// examples/README.md's `npm run example:identity-provider`, as a newcomer runs it beside a
// server: the settings it prints start Workgraph, and Ada signs in through it.

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url))
let idp: CliProcess
let t: ListeningTestApp
let issuer: string
before(async () => {
  const idpPort = await freePort()
  issuer = `http://127.0.0.1:${idpPort}`
  // The server first (its own address is the provider's redirect), with the settings the
  // example is about to print; the test checks below that it prints exactly these.
  t = await startListeningTestApp({
    SSO_ISSUER: issuer,
    SSO_CLIENT_ID: IDP_CLIENT_ID,
    SSO_CLIENT_SECRET: IDP_CLIENT_SECRET,
    SSO_NAME: 'Example IdP',
  })
  await importOk(t.db.db, {
    format: 'workgraph.bundle/v1',
    workspace: { key: 'orbit', name: 'Orbit' },
    people: [{ key: 'ada', name: 'Ada Okafor', email: 'ada@orbit.example', role: 'owner' }],
  })
  // A group of its own: npm and the example under it are stopped together.
  idp = startProcess('npm', ['run', '--silent', 'example:identity-provider'], {
    cwd: ROOT,
    detached: true,
    env: {
      ...process.env,
      PATH: terminalPath(),
      IDP_PORT: String(idpPort),
      WORKGRAPH_URL: t.origin,
    },
  })
})
after(async () => {
  if (idp?.child.pid !== undefined && idp.child.exitCode === null) process.kill(-idp.child.pid)
  await t?.close()
})

test('it prints the settings that start Workgraph with it, and Ada signs in through it', async () => {
  const [line] = await idp.waitFor(/SSO_ISSUER=.* npm start/, 60_000)
  assert.ok(line.includes(`SSO_ISSUER="${issuer}"`), line)
  assert.ok(line.includes(`SSO_CLIENT_ID="${IDP_CLIENT_ID}"`), line)
  assert.ok(line.includes(`SSO_CLIENT_SECRET="${IDP_CLIENT_SECRET}"`), line)
  assert.ok(line.includes(`SSO_NAME="Example IdP"`), line)

  const browser = new Browser(t.origin)
  const signInPage = await browser.get('/sign-in')
  assert.match(mainText(signInPage.body), /Sign in with Example IdP/)
  const toProvider = await browser.get('/sign-in/sso')
  assert.equal(toProvider.status, 303, toProvider.body)
  const back = await signInAtProvider(issuer, toProvider.location as string, 'ada')
  assert.ok(back.startsWith(`${t.origin}/sign-in/sso/callback?`), back)
  const signedIn = await browser.get(back)
  assert.equal(signedIn.status, 303, signedIn.body)
  const home = await browser.get('/')
  assert.equal(home.status, 200)
  assert.match(mainText(home.body), /Signed in as Ada Okafor/)
})

import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { runOAuthApp } from '../../../../examples/oauth-pkce-app/app.ts'
import type { ImportResult } from '../../src/bundle/import-bundle.ts'
import { Browser } from '../harness/browser.ts'
import { type ListeningApp, startListeningApp } from '../harness/browser-app.ts'
import { importOk, smallBundle } from '../harness/bundles.ts'
import { freePort } from '../harness/cli.ts'
import { runBrowserFlow } from '../harness/oauth-flow.ts'

// examples/oauth-pkce-app against the real server; the person's browser is scripted over HTTP.
const PASSWORD = 'a long example passphrase'
let t: ListeningApp
let ws: ImportResult
let redirectUri: string

before(async () => {
  t = await startListeningApp()
  redirectUri = `http://127.0.0.1:${await freePort()}/callback`
  const bundle = smallBundle()
  for (const person of bundle.people) person.password = PASSWORD
  bundle.oauth_clients = [
    { key: 'app', name: 'Example app', redirect_uris: [redirectUri], public: true },
  ]
  ws = await importOk(t.db.db, bundle)
})
after(() => t.close())

test('the OAuth example gets a token with PKCE, lists what the person may open, and refreshes', async () => {
  const pagesSeen: string[] = []
  const result = await runOAuthApp({
    issuer: t.origin,
    clientId: ws.oauth_clients.app?.client_id as string,
    redirectUri,
    scope: 'project:read',
    openBrowser: async (url) => {
      const flow = await runBrowserFlow(new Browser(t.origin), url, {
        email: 'gus@partner.test',
        password: PASSWORD,
      })
      pagesSeen.push(...flow.pagesSeen)
      assert.ok(flow.callback?.startsWith(redirectUri), flow.page.body)
      // The browser arrives at the app's loopback server with the code.
      await fetch(flow.callback as string)
    },
  })
  assert.deepEqual(pagesSeen, ['sign-in', 'consent'])
  // Gus, a guest, is a member of the open project only.
  assert.deepEqual(result, { projects: ['Open project'], afterRefresh: ['Open project'] })
})

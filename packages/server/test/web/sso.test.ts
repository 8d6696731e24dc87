import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import {
  IDP_ACCOUNTS,
  type IdentityProvider,
  startIdentityProvider,
} from '../../../../examples/identity-provider/identity-provider.ts'
import type { ImportResult } from '../../src/bundle/import-bundle.ts'
import { createOAuthClient } from '../../src/oauth/oauth-clients.ts'
import { Browser, formOn, type Page } from '../harness/browser.ts'
import { importOk, smallBundle } from '../harness/bundles.ts'
import { authorizationUrl, exchangeCode, pkcePair } from '../harness/oauth-client-requests.ts'
import { type ListeningTestApp, startListeningTestApp } from '../harness/oauth-flow.ts'
import { contentState } from '../harness/row-counts.ts'
import { mainText, signIn } from '../harness/web-visitor.ts'

// Signing in through an OpenID Connect identity provider (web/sso.routes.ts, sso/, and the OAuth
// pages' oauth/interaction/sso.step.ts), against a second oidc-provider on its own port, as an
// attacker would try it: returns of other browsers, tampered state and nonce, unverified emails,
// workspaces nobody invited the identity to, return_to off the site. The password switch is
// password-off.test.ts's; the pages in Chromium, browser/sso-pages.test.ts.

const PASSWORD = 'a long test passphrase'
let idp: IdentityProvider
let t: ListeningTestApp
let ws: ImportResult
let beta: ImportResult
let delta: ImportResult

before(async () => {
  idp = await startIdentityProvider()
  t = await startListeningTestApp(idp.env({ OAUTH_SIGN_INS_PER_MINUTE: '100000' }))
  idp.register(`${t.origin}/sign-in/sso/callback`)
  const bundle = smallBundle()
  for (const person of bundle.people) person.password = PASSWORD
  ws = await importOk(t.db.db, bundle)
  beta = await importOk(t.db.db, workspace('beta', 'Beta corp', 'bea@beta.test'))
  delta = await importOk(t.db.db, workspace('delta', 'Delta corp', 'dan@delta.test'))
})
after(async () => {
  await t?.close()
  await idp?.close()
})

/** A workspace of its own with one owner. */
function workspace(key: string, name: string, ownerEmail: string) {
  return {
    format: 'workgraph.bundle/v1',
    workspace: { key, name },
    people: [{ key: 'owner', name: `${name} owner`, email: ownerEmail, role: 'owner' }],
  }
}

let subjects = 0
let alice: string | undefined
/** Alice's one account at the provider: her person is linked to it at her first sign-in. */
const aliceAccount = () => {
  alice ??= account('alice@example.test')
  return alice
}
/** A new account at the provider, with a subject no other test uses. */
function account(email: string | undefined, verified = true, name?: string): string {
  const sub = `sub-${++subjects}`
  idp.accounts.set(sub, {
    sub,
    ...(email !== undefined && { email, email_verified: verified }),
    ...(name !== undefined && { name }),
  })
  return sub
}

/** The first leg: the browser asks to sign in through the provider and is sent there. */
async function start(browser: Browser, path = '/sign-in/sso'): Promise<URL> {
  const page = await browser.get(path)
  assert.equal(page.status, 303, page.body)
  assert.equal(page.headers.get('cache-control'), 'no-store')
  const location = new URL(page.location as string)
  assert.equal(location.origin, idp.issuer)
  return location
}

/** A whole sign-in as the account: to the provider, back, and the callback's answer. */
async function ssoSignIn(
  browser: Browser,
  sub: string,
  options: { path?: string; tamper?: (url: URL) => void } = {},
): Promise<Page> {
  const url = await start(browser, options.path)
  options.tamper?.(url)
  return browser.get(await idp.signIn(url.href, sub))
}

/** Who the browser is signed in as on the dashboard, or null. */
async function signedInAs(browser: Browser): Promise<string | null> {
  const home = await browser.get('/')
  if (home.status !== 200) return null
  return /Signed in as ([^<(]+)/.exec(mainText(home.body))?.[1]?.trim() ?? 'someone'
}

const peopleWith = (email: string) =>
  t.db.db
    .selectFrom('people')
    .select(['id', 'workspace_id', 'role', 'sso_issuer', 'sso_subject', 'name'])
    .where('email', '=', email)
    .execute()
const sessions = () => contentState(t.db.db, ['web_sessions', 'people', 'invitations'])

test('the sign-in page offers the provider beside the password form', async () => {
  const page = await new Browser(t.origin).get('/sign-in?return_to=%2Fwebhooks')
  assert.equal(page.status, 200)
  assert.match(
    page.body,
    /href="\/sign-in\/sso\?return_to(=|&#61;)%2Fwebhooks"[^>]*>Sign in with Test IdP</,
  )
  assert.match(page.body, /name="password"/)
  // A link, not a form: no form-action needs to allow the provider.
  assert.match(page.headers.get('content-security-policy') ?? '', /form-action 'self';/)
})

test('a person with the email signs in, is linked, and keeps the account when the email moves', async () => {
  const sub = account('bob@example.test', true, 'Robert at the IdP')
  const browser = new Browser(t.origin)
  const back = await ssoSignIn(browser, sub, { path: '/sign-in/sso?return_to=%2Fwebhooks' })
  assert.equal(back.status, 303, back.body)
  assert.equal(back.location, `${t.origin}/webhooks`)
  assert.equal(await signedInAs(browser), 'Bob Member')
  const [bob] = await peopleWith('bob@example.test')
  assert.equal(bob?.sso_issuer, idp.issuer)
  assert.equal(bob?.sso_subject, sub)
  assert.equal(bob?.name, 'Bob Member', 'signing in changes nothing but the link')

  // The provider changes Bob's address: the link, not the email, finds him.
  idp.accounts.set(sub, { sub, email: 'robert@example.test', email_verified: true })
  const renamed = new Browser(t.origin)
  assert.equal((await ssoSignIn(renamed, sub)).status, 303)
  assert.equal(await signedInAs(renamed), 'Bob Member')

  // Bob's old address now belongs to someone else at the provider: it opens nothing of Bob's.
  const other = account('bob@example.test')
  const before = await sessions()
  const stranger = new Browser(t.origin)
  const refused = await ssoSignIn(stranger, other)
  assert.equal(refused.status, 403)
  assert.match(mainText(refused.body), /No workspace to open/)
  assert.equal(await signedInAs(stranger), null)
  assert.deepEqual(await sessions(), before)
})

test('a return carried to another browser signs no one in there (login CSRF)', async () => {
  const sub = aliceAccount()
  // The attacker runs a sign-in of their own as far as the provider's answer, and stops.
  const attacker = new Browser(t.origin)
  const callback = await idp.signIn((await start(attacker)).href, sub)
  const before = await sessions()
  // The victim's browser follows a link to it: with no flow, and with a flow of its own.
  const fresh = new Browser(t.origin)
  const noFlow = await fresh.get(callback)
  assert.equal(noFlow.status, 400)
  assert.match(mainText(noFlow.body), /started in another browser/)
  const victim = new Browser(t.origin)
  await start(victim)
  const ownFlow = await victim.get(callback)
  assert.equal(ownFlow.status, 400)
  assert.equal(await signedInAs(fresh), null)
  assert.equal(await signedInAs(victim), null)
  assert.deepEqual(await sessions(), before)
  // The attacker's own browser could still use it once: the flow is the browser's, not the link's.
  assert.equal((await attacker.get(callback)).status, 303)
  // And only once: the flow ended with its return.
  assert.equal((await attacker.get(callback)).status, 400)
})

test('a state or nonce the browser did not send is refused, and nothing is linked', async () => {
  const sub = account('adam@example.test')
  const before = await sessions()
  for (const name of ['state', 'nonce']) {
    const browser = new Browser(t.origin)
    const page = await ssoSignIn(browser, sub, {
      tamper: (url) => url.searchParams.set(name, `${url.searchParams.get(name)}x`),
    })
    assert.equal(page.status, 400, `${name}: ${page.body}`)
    assert.match(mainText(page.body), /did not pass its checks/, name)
    assert.equal(await signedInAs(browser), null, name)
  }
  // Without PKCE's verifier the code buys nothing either: a code_challenge of another verifier.
  const browser = new Browser(t.origin)
  const page = await ssoSignIn(browser, sub, {
    tamper: (url) => url.searchParams.set('code_challenge', pkcePair().challenge),
  })
  assert.equal(page.status, 400)
  assert.deepEqual(await sessions(), before)
  const [adam] = await peopleWith('adam@example.test')
  assert.equal(adam?.sso_subject, null)
})

test('an email missing or not verified by the provider opens nothing', async () => {
  const before = await sessions()
  for (const sub of [
    IDP_ACCOUNTS.unverified.sub,
    IDP_ACCOUNTS.noEmail.sub,
    account('olive@example.test', false),
  ]) {
    const browser = new Browser(t.origin)
    const page = await ssoSignIn(browser, sub)
    assert.equal(page.status, 403, sub)
    assert.match(mainText(page.body), /did not give an email address it has verified/, sub)
    assert.equal(await signedInAs(browser), null, sub)
  }
  assert.deepEqual(await sessions(), before)
  const [olive] = await peopleWith('olive@example.test')
  assert.equal(olive?.sso_subject, null)
})

test('a cancel at the provider comes back as a page, not a sign-in', async () => {
  const browser = new Browser(t.origin)
  const page = await ssoSignIn(browser, 'cancel')
  assert.equal(page.status, 400)
  assert.match(mainText(page.body), /did not sign you in/)
  assert.equal(await signedInAs(browser), null)
})

test('an identity nobody invited joins nothing, and its page names no workspace', async () => {
  const bodies: string[] = []
  const before = await sessions()
  // One of a domain no workspace lets in, one of the domain of a workspace's people.
  for (const email of ['nobody@nowhere.test', 'newcomer@delta.test']) {
    const browser = new Browser(t.origin)
    const page = await ssoSignIn(browser, account(email))
    assert.equal(page.status, 403)
    assert.equal(await signedInAs(browser), null)
    bodies.push(page.body.replaceAll(email, 'EMAIL'))
    assert.equal((await peopleWith(email)).length, 0)
  }
  assert.equal(bodies[0], bodies[1], 'the same page, whatever the email')
  for (const name of ['Delta', 'Beta', 'Test workspace'])
    assert.doesNotMatch(bodies[0] as string, new RegExp(name))
  assert.deepEqual(await sessions(), before)
})

test('an invitation joins its workspace with its role, and no other workspace', async () => {
  const olive = await signIn(t, {
    workspaceId: beta.workspace_id,
    personId: beta.ids.owner as string,
  })
  const invited = await olive.submit('/people/invitations', [
    ['form_key', 'k-sso-1'],
    ['email', 'gina@guest.test'],
    ['role', 'guest'],
  ])
  assert.equal(invited.status, 201, invited.body)
  const sub = account('Gina@Guest.test', true, 'Gina G')
  const browser = new Browser(t.origin)
  const page = await ssoSignIn(browser, sub)
  assert.equal(page.status, 303, page.body)
  assert.equal(await signedInAs(browser), 'Gina G')
  const people = await peopleWith('gina@guest.test')
  assert.deepEqual(
    people.map((p) => [p.workspace_id, p.role, p.sso_subject]),
    [[beta.workspace_id, 'guest', sub]],
  )
  const invitation = await t.db.db
    .selectFrom('invitations')
    .select(['accepted_at', 'person_id'])
    .where('workspace_id', '=', beta.workspace_id)
    .where('email', '=', 'gina@guest.test')
    .executeTakeFirstOrThrow()
  assert.equal(invitation.person_id, people[0]?.id)
  assert.ok(invitation.accepted_at)
  const audit = await t.db.db
    .selectFrom('audit_log')
    .select(['action', 'token_kind', 'actor_id'])
    .where('workspace_id', '=', beta.workspace_id)
    .where('resource_id', '=', people[0]?.id as string)
    .execute()
  assert.deepEqual(audit, [
    { action: 'person.joined', token_kind: 'invitation', actor_id: people[0]?.id },
  ])
  // Signing in again finds the person by the link; the used invitation makes no second one.
  const again = new Browser(t.origin)
  assert.equal((await ssoSignIn(again, sub)).status, 303)
  assert.equal((await peopleWith('gina@guest.test')).length, 1)
})

test("an owner's email domain lets its verified addresses join as members; admins may not set it", async () => {
  const owner = await signIn(t, {
    workspaceId: delta.workspace_id,
    personId: delta.ids.owner as string,
  })
  const people = await owner.get('/people')
  assert.match(mainText(people.body), /Joining with Test IdP/)
  assert.match(people.body, /name="domain"/)
  const badDomain = await owner.submit('/people/sso-domain', [['domain', 'not a domain']])
  assert.equal(badDomain.status, 400)
  assert.match(mainText(badDomain.body), /Give a domain such as example\.com/)
  const set = await owner.submit('/people/sso-domain', [['domain', '@Joiners.Test']])
  assert.equal(set.status, 303)
  const row = await t.db.db
    .selectFrom('workspaces')
    .select('sso_email_domain')
    .where('id', '=', delta.workspace_id)
    .executeTakeFirstOrThrow()
  assert.equal(row.sso_email_domain, 'joiners.test')

  const sub = account('jo@joiners.test')
  const browser = new Browser(t.origin)
  assert.equal((await ssoSignIn(browser, sub)).status, 303)
  assert.equal(await signedInAs(browser), 'jo')
  assert.deepEqual(
    (await peopleWith('jo@joiners.test')).map((p) => [p.workspace_id, p.role]),
    [[delta.workspace_id, 'member']],
  )
  // A look-alike domain is not the domain.
  for (const email of ['eve@evil-joiners.test', 'eve@joiners.test.evil', 'eve@sub.joiners.test']) {
    const page = await ssoSignIn(new Browser(t.origin), account(email))
    assert.equal(page.status, 403, email)
  }

  // An admin and a member of the workspace are refused, and the domain stays.
  const adminWs = await signIn(t, { workspaceId: ws.workspace_id, personId: ws.ids.adam as string })
  const adminPage = await adminWs.get('/people')
  assert.doesNotMatch(adminPage.body, /name="domain"/)
  assert.match(mainText(adminPage.body), /Only an owner sets the domain/)
  const byAdmin = await adminWs.submit('/people/sso-domain', [['domain', 'example.test']])
  assert.equal(byAdmin.status, 403)
  const member = await signIn(t, { workspaceId: ws.workspace_id, personId: ws.ids.alice as string })
  assert.equal(
    (await member.submit('/people/sso-domain', [['domain', 'example.test']])).status,
    403,
  )
  const mine = await t.db.db
    .selectFrom('workspaces')
    .select('sso_email_domain')
    .where('id', '=', ws.workspace_id)
    .executeTakeFirstOrThrow()
  assert.equal(mine.sso_email_domain, null)

  // Cleared, the domain lets no one else in.
  assert.equal((await owner.submit('/people/sso-domain', [['domain', '']])).status, 303)
  const late = await ssoSignIn(new Browser(t.origin), account('late@joiners.test'))
  assert.equal(late.status, 403)
  const audits = await t.db.db
    .selectFrom('audit_log')
    .select('action')
    .where('workspace_id', '=', delta.workspace_id)
    .where('action', '=', 'workspace.updated')
    .execute()
  assert.equal(audits.length, 2)
})

test('an identity of several workspaces chooses one; a forged choice is refused', async () => {
  // Bea owns Beta; an invitation brings her to the test workspace too.
  const olive = await signIn(t, { workspaceId: ws.workspace_id, personId: ws.ids.olive as string })
  const invited = await olive.submit('/people/invitations', [
    ['form_key', 'k-sso-2'],
    ['email', 'bea@beta.test'],
    ['role', 'member'],
  ])
  assert.equal(invited.status, 201)
  const sub = account('bea@beta.test', true, 'Bea B')
  const browser = new Browser(t.origin)
  const choice = await ssoSignIn(browser, sub, { path: '/sign-in/sso?return_to=%2Fteams' })
  assert.equal(choice.status, 200)
  assert.match(mainText(choice.body), /Beta corp \(owner\)/)
  assert.match(mainText(choice.body), /Test workspace \(invited as member\)/)
  const form = formOn(choice.body, '/sign-in/sso/workspace')
  const before = await sessions()
  for (const forged of [`domain:${delta.workspace_id}`, `person:${ws.ids.olive}`, 'x']) {
    const page = await browser.post(form.action, { ...form.fields, choice: forged })
    assert.equal(page.status, 403, forged)
  }
  // Another browser cannot answer this browser's choice, token and all.
  const other = new Browser(t.origin)
  await other.get('/sign-in')
  const stolen = await other.post(form.action, {
    ...form.fields,
    choice: `invitation:${/value="invitation:([^"]+)"/.exec(choice.body)?.[1]}`,
  })
  assert.equal(stolen.status, 403)
  assert.deepEqual(await sessions(), before)
  const value = /value="(invitation:[^"]+)"/.exec(choice.body)?.[1] as string
  const done = await browser.post(form.action, { ...form.fields, choice: value })
  assert.equal(done.status, 303)
  assert.equal(done.location, `${t.origin}/teams`)
  assert.equal(await signedInAs(browser), 'Bea B')
  assert.deepEqual(
    (await peopleWith('bea@beta.test')).map((p) => p.workspace_id).sort(),
    [beta.workspace_id, ws.workspace_id].sort(),
  )
})

test('a deactivated person is not signed in, and their workspace is not joined again', async () => {
  const sub = account('gus@partner.test')
  await t.db.db
    .updateTable('people')
    .set({ deactivated_at: new Date() })
    .where('id', '=', ws.ids.gus as string)
    .execute()
  await t.db.db
    .updateTable('workspaces')
    .set({ sso_email_domain: 'partner.test' })
    .where('id', '=', ws.workspace_id)
    .execute()
  try {
    const page = await ssoSignIn(new Browser(t.origin), sub)
    assert.equal(page.status, 403)
    assert.equal((await peopleWith('gus@partner.test')).length, 1)
  } finally {
    await t.db.db
      .updateTable('workspaces')
      .set({ sso_email_domain: null })
      .where('id', '=', ws.workspace_id)
      .execute()
  }
})

test('return_to survives the round trip only as a path of this site', async () => {
  const sub = aliceAccount()
  for (const [given, expected] of [
    ['/webhooks?x=1', '/webhooks?x=1'],
    ['https://evil.example/', '/'],
    ['//evil.example/x', '/'],
    ['/\\evil.example', '/'],
    ['/..//evil.example', '/'],
    ['/sign-in/sso', '/'],
  ] as const) {
    const browser = new Browser(t.origin)
    const page = await ssoSignIn(browser, sub, {
      path: `/sign-in/sso?return_to=${encodeURIComponent(given)}`,
    })
    assert.equal(page.status, 303, given)
    assert.equal(page.location, `${t.origin}${expected}`, given)
  }
})

test('an app signs a person in through the provider and the authorization resumes', async () => {
  const app = await createOAuthClient(t.db.db, {
    name: 'Planner app',
    redirectUris: ['http://127.0.0.1:9/callback'],
    public: true,
    workspaceId: null,
  })
  const sub = aliceAccount()
  const { verifier, challenge } = pkcePair()
  const browser = new Browser(t.origin)
  let page = await browser.get(
    authorizationUrl(t.origin, {
      response_type: 'code',
      client_id: app.client_id,
      redirect_uri: 'http://127.0.0.1:9/callback',
      scope: 'project:read',
      state: 'app-state',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    }),
  )
  while (page.location?.startsWith(t.origin)) page = await browser.get(page.location)
  const ssoLink = /href="(\/oauth\/interaction\/[^"]+\/sso)"[^>]*>Sign in with Test IdP/.exec(
    page.body,
  )?.[1]
  assert.ok(ssoLink, page.body)
  const toIdp = await browser.get(ssoLink)
  assert.equal(toIdp.status, 303)
  page = await browser.get(await idp.signIn(toIdp.location as string, sub))
  assert.equal(page.status, 303)
  assert.match(page.location as string, /\/oauth\/interaction\/[^/]+\/sso\/return$/)
  while (page.location?.startsWith(t.origin)) page = await browser.get(page.location)
  assert.match(mainText(page.body), /Planner app asks to act as Alice Member/)
  const consent = formOn(page.body, '/confirm')
  page = await browser.post(consent.action, { ...consent.fields, decision: 'approve' })
  while (page.location?.startsWith(t.origin)) page = await browser.get(page.location)
  const callback = new URL(page.location as string)
  assert.equal(callback.searchParams.get('state'), 'app-state')
  const tokens = await exchangeCode(t.origin, {
    code: callback.searchParams.get('code') as string,
    clientId: app.client_id,
    redirectUri: 'http://127.0.0.1:9/callback',
    verifier,
  })
  assert.equal(tokens.status, 200, JSON.stringify(tokens.json))
})

test("an app's interaction refuses a verified return made for another interaction", async () => {
  const sub = aliceAccount()
  const browser = new Browser(t.origin)
  const toIdp = await start(browser)
  const back = await browser.get(await idp.signIn(toIdp.href, sub))
  assert.equal(back.status, 303, 'a dashboard flow signs in on the dashboard')
  // A hand-made return address of an interaction: no interaction cookie, no flow for it.
  const made = await browser.get('/oauth/interaction/someone-elses/sso/return')
  assert.equal(made.status, 400)
})

test("a flow's cookie opens only with the pre-session cookie it was made for, and for 10 minutes", async () => {
  const sub = aliceAccount()
  // Two browsers set out; the first one's SSO cookie is carried into the second, beside the
  // second's own pre-session cookie (a cookie planted from elsewhere).
  const [first, second] = [await rawStart(), await rawStart()]
  const callback = await idp.signIn(first.location, sub)
  const planted = await fetch(callback, {
    headers: { cookie: `workgraph_sso=${first.sso}; workgraph_sign_in=${second.preSession}` },
    redirect: 'manual',
  })
  assert.equal(planted.status, 400)
  assert.doesNotMatch(planted.headers.get('set-cookie') ?? '', /workgraph_session=/)
  // A flow older than 10 minutes is gone, though the provider answered.
  const late = await rawStart()
  const lateCallback = await idp.signIn(late.location, sub)
  t.clock.advance(10 * 60 * 1000 + 1)
  const expired = await fetch(lateCallback, {
    headers: { cookie: `workgraph_sso=${late.sso}; workgraph_sign_in=${late.preSession}` },
    redirect: 'manual',
  })
  assert.equal(expired.status, 400)
  // The same, in time and in its own browser, signs in: the refusals above were the binding's.
  const fine = await rawStart()
  const ok = await fetch(await idp.signIn(fine.location, sub), {
    headers: { cookie: `workgraph_sso=${fine.sso}; workgraph_sign_in=${fine.preSession}` },
    redirect: 'manual',
  })
  assert.equal(ok.status, 303)
  assert.match(ok.headers.get('set-cookie') ?? '', /workgraph_session=/)
})

test('only the boolean email_verified: true counts as verified', async () => {
  const before = await sessions()
  for (const [label, claims] of [
    ['absent', { email: 'olive@example.test' }],
    ['the string "true"', { email: 'olive@example.test', email_verified: 'true' }],
    ['1', { email: 'olive@example.test', email_verified: 1 }],
  ] as const) {
    const sub = `sub-${++subjects}`
    idp.accounts.set(sub, { sub, ...claims } as never)
    const page = await ssoSignIn(new Browser(t.origin), sub)
    assert.equal(page.status, 403, label)
  }
  assert.deepEqual(await sessions(), before)
})

test("a verified return finishes only the interaction it was started from, and a bound app's workspace", async () => {
  const app = await createOAuthClient(t.db.db, {
    name: 'Bound app',
    redirectUris: ['http://127.0.0.1:9/callback'],
    public: true,
    workspaceId: beta.workspace_id,
  })
  const openInteraction = async (browser: Browser) => {
    let page = await browser.get(
      authorizationUrl(t.origin, {
        response_type: 'code',
        client_id: app.client_id,
        redirect_uri: 'http://127.0.0.1:9/callback',
        scope: 'project:read',
        state: 'bound',
        code_challenge: pkcePair().challenge,
        code_challenge_method: 'S256',
      }),
    )
    while (page.location?.startsWith(t.origin)) page = await browser.get(page.location)
    return /\/oauth\/interaction\/([^/"]+)\/sso/.exec(page.body)?.[1] as string
  }
  const throughProvider = async (browser: Browser, uid: string) => {
    const toIdp = await browser.get(`/oauth/interaction/${uid}/sso`)
    const back = await browser.get(await idp.signIn(toIdp.location as string, aliceAccount()))
    assert.equal(back.location, `${t.origin}/oauth/interaction/${uid}/sso/return`)
  }
  // A verified return not yet followed; the same browser opens another interaction and offers it
  // the verified identity: it belongs to the first one only.
  const browser = new Browser(t.origin)
  await throughProvider(browser, await openInteraction(browser))
  const stolen = await browser.get(
    `/oauth/interaction/${await openInteraction(browser)}/sso/return`,
  )
  assert.equal(stolen.status, 400)
  assert.match(mainText(stolen.body), /started in another browser/)
  // Alice is a person of the test workspace only: the app, bound to Beta, may not serve her.
  const own = new Browser(t.origin)
  const uid = await openInteraction(own)
  await throughProvider(own, uid)
  const refused = await own.get(`/oauth/interaction/${uid}/sso/return`)
  assert.equal(refused.status, 403)
  assert.match(mainText(refused.body), /No workspace to open/)
})

/** A sign-in started by hand: where it sends the browser, and the two cookies it sets. */
async function rawStart(): Promise<{ location: string; sso: string; preSession: string }> {
  const response = await fetch(`${t.origin}/sign-in/sso`, { redirect: 'manual' })
  const cookie = (name: string) =>
    response.headers
      .getSetCookie()
      .find((line) => line.startsWith(`${name}=`))
      ?.split(';')[0]
      ?.slice(name.length + 1) as string
  return {
    location: response.headers.get('location') as string,
    sso: cookie('workgraph_sso'),
    preSession: cookie('workgraph_sign_in'),
  }
}

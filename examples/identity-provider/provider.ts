/**
 * `npm run example:identity-provider`: an OpenID Connect identity provider on this machine, to try
 * single sign-on against `npm start`'s demo workspace (docs/operations.md, "Single sign-on"). It
 * prints the settings to start Workgraph with; its sign-in page lets you pick who you are.
 *
 *   IDP_PORT (9998)  WORKGRAPH_URL (http://127.0.0.1:8080, Workgraph's PUBLIC_URL)
 */
import { type IdpAccount, startIdentityProvider } from './identity-provider.ts'

// People of the demo workspace, and one nobody invited: the provider has verified every email.
const ACCOUNTS: IdpAccount[] = [
  { sub: 'ada', email: 'ada@orbit.example', email_verified: true, name: 'Ada Okafor' },
  { sub: 'elena', email: 'elena@orbit.example', email_verified: true, name: 'Elena Petrova' },
  { sub: 'newcomer', email: 'newcomer@orbit.example', email_verified: true, name: 'New Comer' },
]

const port = Number(process.env.IDP_PORT ?? 9998)
const workgraph = (process.env.WORKGRAPH_URL ?? 'http://127.0.0.1:8080').replace(/\/$/, '')
const idp = await startIdentityProvider({ port, emailInIdToken: true, accounts: ACCOUNTS })
idp.register(`${workgraph}/sign-in/sso/callback`)
const settings = Object.entries(idp.env({ SSO_NAME: 'Example IdP' }))
  .map(([name, value]) => `${name}=${JSON.stringify(value)}`)
  .join(' ')
console.log(`An identity provider for trying single sign-on is at ${idp.issuer}.

Start Workgraph with it, in another terminal:
  ${settings} npm start

Then open ${workgraph}/sign-in and choose "Sign in with Example IdP": Ada and Elena are people of
the demo workspace; newcomer@orbit.example is nobody's, until the owner allows orbit.example on
the People page. Stop with Ctrl-C.`)

for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => void idp.close().then(() => process.exit(0)))

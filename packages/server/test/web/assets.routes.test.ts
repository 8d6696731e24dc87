import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, test } from 'node:test'
import type { ImportResult } from '../../src/bundle/import-bundle.ts'
import { importOk, smallBundle } from '../harness/bundles.ts'
import { StatementLog } from '../harness/statement-log.ts'
import { client, startTestApp, type TestApp } from '../harness/test-app.ts'
import { signIn } from '../harness/web-visitor.ts'

// The dashboard's stylesheet and script (web/assets.routes.ts): served at the versioned URLs the
// layout links, immutable under their hash, revalidated by ETag, and without a session.

const FILES = {
  'app.css': 'text/css; charset=utf-8',
  'app.js': 'text/javascript; charset=utf-8',
} as const
const source = (name: string) =>
  readFileSync(join(import.meta.dirname, '../../src/web/assets', name), 'utf8')

let t: TestApp
let ws: ImportResult
const log = new StatementLog()
before(async () => {
  t = await startTestApp({ plugin: log })
  ws = await importOk(t.db.db, smallBundle())
})
after(() => t.close())

/** The URLs a page links its stylesheet and script by, by file name, as a browser reads them. */
async function linkedUrls(): Promise<Record<string, string>> {
  const page = await client(t.app).get('/sign-in')
  const attribute = (pattern: RegExp) => pattern.exec(page.body)?.[1]?.replaceAll('&#61;', '=')
  const css = attribute(/<link rel="stylesheet" href="(\/assets\/app\.css\?v[^"]+)">/)
  const js = attribute(/<script src="(\/assets\/app\.js\?v[^"]+)" defer><\/script>/)
  assert.ok(css && js, 'the layout links both files')
  return { 'app.css': css, 'app.js': js }
}

test('each file is served whole at its linked URL, typed, immutable under its hash', async () => {
  const urls = await linkedUrls()
  for (const [name, type] of Object.entries(FILES)) {
    const url = urls[name] as string
    const reply = await client(t.app).get(url)
    assert.equal(reply.status, 200, name)
    assert.equal(reply.body, source(name), `${name}: the file itself`)
    assert.equal(reply.headers['content-type'], type, name)
    assert.equal(reply.headers['cache-control'], 'public, max-age=31536000, immutable', name)
    assert.equal(reply.headers['x-content-type-options'], 'nosniff', name)
    // The version in the URL is the ETag: a changed file is a new URL.
    const version = new URL(url, 'http://x').searchParams.get('v')
    assert.match(version ?? '', /^[A-Za-z0-9_-]{16}$/, name)
    assert.equal(reply.headers.etag, `"${version}"`, name)
  }
})

test('revalidating with the current ETag is a 304; another ETag gets the file', async () => {
  const urls = await linkedUrls()
  for (const name of Object.keys(FILES)) {
    const path = (urls[name] as string).split('?')[0] as string
    const etag = String((await client(t.app).get(path)).headers.etag)
    const fresh = await client(t.app).get(path, { 'if-none-match': etag })
    assert.equal(fresh.status, 304, name)
    assert.equal(fresh.body, '', name)
    assert.equal(fresh.headers.etag, etag, name)
    const stale = await client(t.app).get(path, { 'if-none-match': '"an-older-version"' })
    assert.equal(stale.status, 200, name)
    assert.equal(stale.body, source(name), name)
  }
})

test('the files are served without reading a session, signed in or not', async () => {
  const urls = await linkedUrls()
  const alice = await signIn(t, { workspaceId: ws.workspace_id, personId: ws.ids.alice as string })
  // A page with the same cookie does read the session: the log sees this app's statements.
  log.clear()
  assert.equal((await alice.get('/')).status, 200)
  assert.ok(log.statements.length > 0)
  const cookies: Record<string, string>[] = [
    { cookie: alice.cookie },
    { cookie: 'workgraph_session=ended' },
    {},
  ]
  for (const headers of cookies) {
    for (const url of Object.values(urls)) {
      log.clear()
      const reply = await client(t.app).get(url, headers)
      assert.equal(reply.status, 200, url)
      assert.deepEqual(log.statements, [], `${url} with ${JSON.stringify(headers)}`)
    }
  }
})

test('only these two files are served: any other path under /assets is a 404', async () => {
  for (const path of [
    '/assets/app.ts',
    '/assets/app.css.map',
    '/assets/',
    '/assets/%2e%2e/assets.routes.ts',
    '/assets/../package.json',
  ]) {
    const reply = await client(t.app).get(path)
    assert.equal(reply.status, 404, path)
    assert.ok(!reply.body.includes('import '), `${path}: no source file`)
  }
})

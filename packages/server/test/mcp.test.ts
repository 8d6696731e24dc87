import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import type { ImportResult } from '../src/bundle/import-bundle.ts'
import { importOk, tokenOf, writableBundle } from './harness/bundles.ts'
import { connectMcp, GENERATIONS } from './harness/mcp-clients.ts'
import { type ListeningTestApp, startListeningTestApp } from './harness/oauth-flow.ts'

let t: ListeningTestApp
let ws: ImportResult
let mcpUrl: string

before(async () => {
  t = await startListeningTestApp()
  ws = await importOk(t.db.db, writableBundle())
  mcpUrl = `${t.origin}/mcp`
})
after(() => t.close())

for (const generation of GENERATIONS) {
  describe(`an official ${generation} MCP client`, () => {
    test('lists the tools and calls workspace', async () => {
      const client = await connectMcp(generation, mcpUrl, tokenOf(ws, 'alice-key'))
      try {
        const tools = await client.listTools()
        assert.ok(tools.some((tool) => tool.name === 'workspace'))
        const result = await client.callTool('workspace')
        assert.equal(result.isError, undefined, JSON.stringify(result))
        console.log(result.content[0]?.text)
      } finally {
        await client.close()
      }
    })
  })
}

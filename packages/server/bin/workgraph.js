#!/usr/bin/env node
// The `workgraph` command. Its source is TypeScript, which Node runs by stripping the types; Node
// does that unflagged from 22.18 (and 23.6), so an older Node is told what to do instead of
// failing on the first type annotation. Plain JavaScript up to the import, so any Node can read it.
const [major, minor] = process.versions.node.split('.').map(Number)
if (major < 22 || (major === 22 && minor < 18) || (major === 23 && minor < 6)) {
  process.stderr.write(
    `workgraph needs Node.js 22.18 or newer; this is ${process.versions.node}. ` +
      'Run it as `npx workgraph` in the project (npm ci installs Node 24 there), or install Node.js 22.18+.\n',
  )
  process.exit(1)
}
await import('../src/main.ts')

#!/usr/bin/env node
// The `workgraph` command. The source is TypeScript run by Node's type stripping (Node >= 22.18).
import '../src/main.ts'

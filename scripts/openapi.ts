/**
 * `npm run openapi`: writes the OpenAPI document the routes generate to docs/openapi.json, the
 * committed contract that the SDK's types are generated from. A test fails when they drift.
 */
import { writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { generateOpenApiDocument } from '../packages/server/src/openapi-document.ts'

const target = resolve(import.meta.dirname, '../docs/openapi.json')
writeFileSync(target, `${JSON.stringify(await generateOpenApiDocument(), null, 2)}\n`)
console.log(`Wrote ${target}`)

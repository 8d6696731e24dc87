/**
 * `npm run bench:relevance`: the judged questions (questions.ts) against the demo workspace, on
 * PGlite and on PostgreSQL (`DATABASE_URL`, or the local server), each in a throwaway database.
 *
 *   npm run bench:relevance -- [--engines pglite,postgres]
 */
import { parseArgs } from 'node:util'
import { formatRelevance, type RelevanceResult, relevanceOn } from './relevance.ts'

const { values } = parseArgs({
  options: { engines: { type: 'string', default: 'pglite,postgres' } },
})

const results: RelevanceResult[] = []
for (const engine of values.engines.split(',')) results.push(await relevanceOn(engine))
console.log(formatRelevance(results))

import type { FastifyInstance, FastifyRequest } from 'fastify'
import { invalidPart } from '../api/problems.ts'
import { fieldName } from '../api/validation-messages.ts'
import { unstorableText } from '../lib/storable-text.ts'

// A fault as a sentence that names the field, as validation problems are (docs/errors.md).
function inWords(fault: { path: string; message: string }, part: string) {
  return { path: fault.path, message: `${fieldName(fault.path, part)} ${fault.message}.` }
}

// Fastify's names of the parts, in the order its own validation reports them.
const PARTS = ['params', 'body', 'querystring', 'headers'] as const

function partOf(request: FastifyRequest, part: (typeof PARTS)[number]): unknown {
  return part === 'querystring' ? request.query : request[part]
}

/**
 * The one rule for every string a request carries (path, body at any depth and its keys, query
 * string, headers): a NUL or an unpaired surrogate is a 422 before any validator, handler or query
 * sees it. A hook rather than the validator compiler, because it must also cover the parts a
 * route declares no schema for. Routes handed to the OAuth provider never get here; its database
 * adapters refuse such ids themselves.
 */
export function installStorableTextRule(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    if (request.is404) return // no route reads anything; the 404 says what is wrong
    for (const part of PARTS) {
      const faults = unstorableText(partOf(request, part))
      if (faults.length > 0)
        throw invalidPart(
          part,
          faults.map((fault) => inWords(fault, part)),
        )
    }
  })
}

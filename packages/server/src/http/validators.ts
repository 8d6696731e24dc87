import type { FastifyRequest, FastifySchema, FastifySchemaCompiler } from 'fastify'
import { jsonBodyAjv, makeAjv } from '../api/json-validator.ts'

/**
 * Validator compilers per part of the request. JSON bodies are never coerced (`"5"` is not a
 * number; a wrong type is a 422), while query strings and path parameters, which are always text,
 * are coerced to the declared types and single values to arrays.
 */
export function validatorCompiler(): FastifySchemaCompiler<FastifySchema> {
  const body = jsonBodyAjv()
  const text = makeAjv({ coerceTypes: 'array' })
  return ({ schema, httpPart }) => (httpPart === 'body' ? body : text).compile(schema as object)
}

/**
 * Treats an absent body as `{}` when the route's body has no required fields, so that
 * `POST /v1/api-keys/:id/rotate` works without one, as clients expect of optional parameters.
 */
export function defaultEmptyBody(request: FastifyRequest): void {
  const schema = request.routeOptions.schema?.body as
    | { type?: string; required?: string[] }
    | undefined
  if (request.body === undefined && schema?.type === 'object' && !schema.required?.length)
    request.body = {}
}

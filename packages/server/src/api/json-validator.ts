import { Ajv, type Options } from 'ajv'
import addFormats from 'ajv-formats'

const COMMON: Options = {
  allErrors: true,
  useDefaults: true,
  removeAdditional: false,
  strict: false,
}

/** An Ajv with the API's settings: every error, defaults applied, formats checked. */
export function makeAjv(options: Options): Ajv {
  const ajv = new Ajv({ ...COMMON, ...options })
  addFormats.default(ajv, ['date', 'date-time', 'email', 'uri'])
  return ajv
}

/** The validator of JSON bodies: no coercion, formats checked. MCP tools' arguments use it too. */
export function jsonBodyAjv(): Ajv {
  return makeAjv({ coerceTypes: false })
}

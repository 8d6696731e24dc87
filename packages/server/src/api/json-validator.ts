import { Ajv, type Options } from 'ajv'
import addFormats from 'ajv-formats'
import { isStorableDay, isStorableTime } from '../lib/storable-dates.ts'

const COMMON: Options = {
  allErrors: true,
  useDefaults: true,
  removeAdditional: false,
  strict: false,
}

/**
 * An Ajv with the API's settings: every error, defaults applied, formats checked. `date` and
 * `date-time` are the days and times the service can store (lib/storable-dates.ts), not every
 * string of their shape: a year 0 passes RFC 3339 and fails in the database.
 */
export function makeAjv(options: Options): Ajv {
  const ajv = new Ajv({ ...COMMON, ...options })
  addFormats.default(ajv, ['email', 'uri'])
  ajv.addFormat('date', { type: 'string', validate: isStorableDay })
  ajv.addFormat('date-time', { type: 'string', validate: isStorableTime })
  return ajv
}

/** The validator of JSON bodies: no coercion, formats checked. MCP tools' arguments use it too. */
export function jsonBodyAjv(): Ajv {
  return makeAjv({ coerceTypes: false })
}

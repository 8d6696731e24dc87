import type { Schema } from './fuzz-request.ts'
import { RawJson } from './raw-json.ts'

const jsonType = (value: unknown): string =>
  value === null
    ? 'null'
    : Array.isArray(value)
      ? 'array'
      : value instanceof RawJson
        ? 'raw'
        : typeof value

/** True when no branch of the schema can accept the value; false when unsure. */
export function surelyInvalid(value: unknown, schema: Schema): boolean {
  if (!schema || typeof schema !== 'object') return false
  if (schema.anyOf) return schema.anyOf.every((s: Schema) => surelyInvalid(value, s))
  if (value instanceof RawJson) return schema.type === 'string' || schema.type === 'boolean'
  const type = jsonType(value)
  const allowed = schema.type === 'integer' ? 'number' : schema.type
  if (schema.enum) return !schema.enum.includes(value)
  if (schema.const !== undefined) return value !== schema.const
  if (allowed && type !== allowed) return true
  if (type === 'number' && schema.type === 'integer' && !Number.isInteger(value)) return true
  if (typeof value === 'string') {
    if (schema.maxLength !== undefined && value.length > schema.maxLength) return true
    if (schema.minLength !== undefined && value.length < schema.minLength) return true
    if (schema.format && value === 'not a value of any format') return true
  }
  if (typeof value === 'number') {
    if (schema.maximum !== undefined && value > schema.maximum) return true
    if (schema.minimum !== undefined && value < schema.minimum) return true
  }
  return false
}

import type { TSchema } from 'typebox'
import { Settings } from 'typebox/system'
import { Value } from 'typebox/value'
import '../lib/typebox-formats.ts'

/** One thing wrong with an input, located by JSON Pointer. */
export interface Problem {
  path: string
  message: string
}

const FORMAT_MESSAGES: Record<string, string> = {
  date: 'must be a date (YYYY-MM-DD) from 0001-01-01 to 9999-12-31',
  'date-time': 'must be an RFC 3339 timestamp such as 2026-11-20T10:00:00Z, from year 0001 to 9999',
  email: 'must be an email address',
}

/**
 * Every way `value` breaks `schema`, in plain words: one problem per unknown field and per
 * missing field, and one per failed union instead of one per branch.
 */
export function schemaProblems(schema: TSchema, value: unknown): Problem[] {
  // Collecting errors walks a large valid bundle keeping every path it visits, a large share of
  // an import's memory (bench/HISTORY.md, "Memory"); a plain check does not, and a valid input
  // is the common case.
  if (Value.Check(schema, value)) return []
  const previous = Settings.Get().maxErrors
  Settings.Set({ maxErrors: 10_000 })
  try {
    const errors = Value.Errors(schema, value)
    const unions = errors.filter((e) => e.keyword === 'anyOf').map((e) => `${e.schemaPath}/anyOf/`)
    const problems: Problem[] = []
    for (const error of errors) {
      if (unions.some((prefix) => error.schemaPath.startsWith(prefix))) continue
      const params = error.params as Record<string, unknown>
      switch (error.keyword) {
        case 'boolean': // "schema is false": the additionalProperties error below says it better
          break
        case 'additionalProperties':
          for (const name of params.additionalProperties as string[]) {
            problems.push({
              path: `${error.instancePath}/${escapePointer(name)}`,
              message: 'is not a known field',
            })
          }
          break
        case 'required':
          for (const name of params.requiredProperties as string[]) {
            problems.push({
              path: `${error.instancePath}/${escapePointer(name)}`,
              message: 'is required',
            })
          }
          break
        case 'enum':
          problems.push({
            path: error.instancePath,
            message: `must be one of: ${(params.allowedValues as unknown[]).join(', ')}`,
          })
          break
        case 'format':
          problems.push({
            path: error.instancePath,
            message: FORMAT_MESSAGES[params.format as string] ?? error.message,
          })
          break
        case 'anyOf':
          problems.push({
            path: error.instancePath,
            message: unionMessage(schema, error.schemaPath),
          })
          break
        default:
          problems.push({ path: error.instancePath, message: error.message })
      }
    }
    return problems
  } finally {
    Settings.Set({ maxErrors: previous })
  }
}

// A union says what it accepts in its `description`; fall back to a generic sentence.
function unionMessage(root: TSchema, schemaPath: string): string {
  let node: unknown = root
  for (const part of schemaPath.replace(/^#\/?/, '').split('/').filter(Boolean)) {
    node = (node as Record<string, unknown> | undefined)?.[
      part.replace(/~1/g, '/').replace(/~0/g, '~')
    ]
  }
  const description = (node as { description?: string } | undefined)?.description
  return description ? `must be ${description}` : 'does not match any allowed form'
}

function escapePointer(name: string): string {
  return name.replace(/~/g, '~0').replace(/\//g, '~1')
}

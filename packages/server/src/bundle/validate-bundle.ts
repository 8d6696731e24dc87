import { type Bundle, BundleSchema } from './bundle.schema.ts'
import { type KeyTable, referenceProblems } from './bundle-references.ts'
import { type Problem, schemaProblems } from './schema-problems.ts'

/** A bundle that can be imported, or every reason it cannot. */
export type BundleValidation =
  | { ok: true; bundle: Bundle; keys: KeyTable }
  | { ok: false; problems: Problem[] }

/**
 * Checks a whole bundle: its shape first, then every reference and rule the shape cannot
 * express. Both passes run even when the first finds problems, so one attempt lists everything;
 * a reference problem at a path the schema already rejected is not repeated.
 */
export function validateBundle(input: unknown): BundleValidation {
  const shape = schemaProblems(BundleSchema, input)
  let references: Problem[] = []
  let keys: KeyTable = new Map()
  try {
    ;({ problems: references, keys } = referenceProblems(input as Bundle))
  } catch {
    // The shape is too broken to follow references (shape problems say why).
  }
  const rejected = shape.map((p) => p.path)
  const extra = references.filter(
    (p) => !rejected.some((path) => p.path === path || p.path.startsWith(`${path}/`)),
  )
  const problems = [...shape, ...extra].sort((a, b) => comparePaths(a.path, b.path))
  if (problems.length > 0) return { ok: false, problems }
  return { ok: true, bundle: input as Bundle, keys }
}

// JSON Pointers in document order: numeric segments compare as numbers.
function comparePaths(a: string, b: string): number {
  const x = a.split('/')
  const y = b.split('/')
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const [p, q] = [x[i] as string, y[i] as string]
    if (p === q) continue
    const [m, n] = [Number(p), Number(q)]
    return Number.isInteger(m) && Number.isInteger(n) ? m - n : p < q ? -1 : 1
  }
  return x.length - y.length
}

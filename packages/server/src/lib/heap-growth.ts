import { setFlagsFromString } from 'node:v8'

/**
 * How much V8 lets the old generation grow past what survived its last full collection before
 * it collects again, in per cent. Left to pick it, V8 let a served embedded database and a large
 * import hold far more garbage than live data. At 10 % the heap stays near what is live, and
 * the extra full collections cost no measurable throughput (bench/HISTORY.md, "Memory").
 */
export const HEAP_GROWING_PERCENT = 10

/** Sets V8's heap growth for this process (read by V8 at every collection, so it applies now). */
export function limitHeapGrowth(): void {
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`)
}

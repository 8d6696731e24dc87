import { setFlagsFromString } from 'node:v8'

/**
 * How much V8 lets the old generation grow past what survived its last full collection before
 * it collects again, in per cent. V8 picks 10–300 % by itself and, with a heap limit of gigabytes,
 * let a served embedded database hold 150–200 MB of garbage after load, and an import of 100,000
 * items 400 MB. At 10 % the heap stays near what is live; the extra full collections took no
 * measurable throughput (bench/README.md, "Memory").
 */
export const HEAP_GROWING_PERCENT = 10

/** Sets V8's heap growth for this process (read by V8 at every collection, so it applies now). */
export function limitHeapGrowth(): void {
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`)
}

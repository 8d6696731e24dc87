import fc from 'fast-check'
import type { Gen } from './fuzz-request.ts'

// Unbiased: fast-check's usual bias towards small values and first options would make every
// "now and then" fault nearly always present. Each call is one draw, so the order of calls is the
// order of draws: what a seed generates depends on it.

/** One of `items`, each as likely as the others. */
export const pick = <T>(g: Gen, items: readonly T[]): T =>
  g(() => fc.noBias(fc.constantFrom(...items)))

/** An integer from `min` to `max` inclusive, each as likely as the others. */
export const int = (g: Gen, min: number, max: number): number =>
  g(() => fc.noBias(fc.integer({ min, max })))

/** True `percent` times in a hundred. */
export const chance = (g: Gen, percent: number): boolean => int(g, 0, 99) < percent

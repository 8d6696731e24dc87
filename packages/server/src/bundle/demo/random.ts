/** A small, fast, seeded random source (sfc32), so generated bundles repeat exactly per seed. */
export class Random {
  #a: number
  #b: number
  #c: number
  #d: number

  constructor(seed: string | number) {
    // Spread the seed's characters over four 32-bit words (cyrb128).
    let [h1, h2, h3, h4] = [1779033703, 3144134277, 1013904242, 2773480762]
    for (const ch of String(seed)) {
      const k = ch.codePointAt(0) ?? 0
      h1 = h2 ^ Math.imul(h1 ^ k, 597399067)
      h2 = h3 ^ Math.imul(h2 ^ k, 2869860233)
      h3 = h4 ^ Math.imul(h3 ^ k, 951274213)
      h4 = h1 ^ Math.imul(h4 ^ k, 2716044179)
    }
    this.#a = h1 >>> 0
    this.#b = h2 >>> 0
    this.#c = h3 >>> 0
    this.#d = h4 >>> 0
    for (let i = 0; i < 12; i++) this.next()
  }

  /** A float in [0, 1). */
  next(): number {
    const t = (((this.#a + this.#b) | 0) + this.#d) | 0
    this.#d = (this.#d + 1) | 0
    this.#a = this.#b ^ (this.#b >>> 9)
    this.#b = (this.#c + (this.#c << 3)) | 0
    this.#c = (this.#c << 21) | (this.#c >>> 11)
    this.#c = (this.#c + t) | 0
    return (t >>> 0) / 4294967296
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1))
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return this.next() < p
  }

  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)] as T
  }

  /** `count` distinct elements (fewer if the list is shorter), in random order. */
  sample<T>(items: readonly T[], count: number): T[] {
    const copy = [...items]
    for (let i = copy.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1))
      ;[copy[i], copy[j]] = [copy[j] as T, copy[i] as T]
    }
    return copy.slice(0, count)
  }

  /** An index in [0, n) drawn with Zipf-like weights (rank r has weight 1 / (r + 1)). */
  zipf(n: number): number {
    // Inverse of the continuous approximation of the harmonic CDF.
    return Math.min(n - 1, Math.floor(Math.exp(this.next() * Math.log(n + 1)) - 1))
  }
}

/** A placeholder for JSON text that JSON.stringify cannot produce (1e400, 20-digit integers, deep nesting). */
export class RawJson {
  readonly text: string
  constructor(text: string) {
    this.text = text
  }
}

/** Serializes a value in which RawJson pieces stand for themselves. */
export function serialize(value: unknown): string {
  const raws: string[] = []
  const text = JSON.stringify(value, (_key, v) => {
    if (v instanceof RawJson) {
      raws.push(v.text)
      return `@@raw${raws.length - 1}@@`
    }
    return v
  })
  return (text ?? 'null').replace(/"@@raw(\d+)@@"/g, (_m, i) => raws[Number(i)] as string)
}

/** `n` nested empty arrays, deeper than a parser may care to go. */
export const deepArray = (n: number) => new RawJson(`${'['.repeat(n)}${']'.repeat(n)}`)

/** `n` nested objects around a 1. */
export const deepObject = (n: number) => new RawJson(`${'{"a":'.repeat(n)}1${'}'.repeat(n)}`)

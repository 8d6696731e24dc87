import { lastFour } from '../access/secrets.ts'

/**
 * A copy of a dry run's answer with everything the real write would make anew as null: any string
 * that contains an id or secret minted during the dry run (an id, and the `url` and `api_url`
 * that name it), and a `last4` cut from such a secret. Ids and secrets are long random strings,
 * so containment never matches anything else.
 */
export function nullMinted<T>(value: T, minted: ReadonlySet<string>): T {
  if (minted.size === 0) return value
  const values = [...minted]
  const lastFours = new Set(values.filter((v) => !idLike(v)).map(lastFour))
  const walk = (node: unknown, key: string | null): unknown => {
    if (typeof node === 'string') {
      if (key === 'last4' && lastFours.has(node)) return null
      return values.some((v) => node.includes(v)) ? null : node
    }
    if (Array.isArray(node)) return node.map((item) => walk(item, null))
    if (node !== null && typeof node === 'object') {
      return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, walk(v, k)]))
    }
    return node
  }
  return walk(value, null) as T
}

// Ids are `prefix_body`; secrets are longer and carry their own prefixes (wg_key_, whsec_).
function idLike(value: string): boolean {
  return /^[a-z]{2,4}_[0-9a-z]{26}$/.test(value)
}

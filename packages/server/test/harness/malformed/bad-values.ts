import { int, pick } from './draws.ts'
import type { Gen } from './fuzz-request.ts'
import { deepArray, deepObject, RawJson } from './raw-json.ts'

/** Strings the database cannot take, as JS strings (a JSON body carries them as escapes). */
export const BAD_TEXT = [
  '\u0000',
  'a\u0000b',
  '\u0000\u0000',
  '\ud800',
  'x\udc00y',
  '\udbff',
  '\udc00\ud800',
  `${'x'.repeat(3000)}\u0000`,
  'ok\u0000\ud800',
] as const

/** A NUL as a URL can carry it; an unpaired surrogate has no UTF-8 form, so no URL can. */
export const BAD_PCT = ['%00', 'a%00', '%00b', 'x%00%00y'] as const

/** Percent-encodings that decode to nothing valid: noise, refused or kept as they are. */
export const UNDECODABLE = [
  '%',
  '%zz',
  '%ED%A0%80',
  '%C0%80',
  '%FF',
  '%E0%A4%A',
  '%F4%90%80%80',
] as const

/** One of BAD_TEXT. */
export const bad = (g: Gen) => pick(g, BAD_TEXT)

/** Values of every JSON type, and the awkward ones; callers pick one. */
export const wrongValues = (g: Gen): unknown[] => [
  pick(g, [0, -1, 1.5, 1e308, -1e308, 2 ** 53 + 2]),
  new RawJson(
    pick(g, ['1e400', '-1e400', '123456789012345678901234567890', '-0', '0.0000001e-400']),
  ),
  pick(g, ['', 'not a value of any format', 'x'.repeat(int(g, 501, 200_000))]),
  true,
  null,
  [],
  pick(g, [[1, 'a', null], [[[]]], Array.from({ length: 200 }, (_, i) => i)]),
  {},
  { a: { b: [1] } },
  deepArray(int(g, 100, 50_000)),
  deepObject(int(g, 100, 20_000)),
]

/** Puts a bad string somewhere in a JSON value: a value, a key, or a new nested value. */
export function withBadText(g: Gen, value: unknown): unknown {
  const text = bad(g)
  const copy = structuredClone(value)
  const container =
    copy !== null && typeof copy === 'object' ? (copy as Record<string, unknown>) : null
  if (!container) return pick(g, [text, [text], { x: text }])
  const keys = Object.keys(container)
  switch (int(g, 0, 4)) {
    case 0:
      if (keys.length > 0) {
        container[pick(g, keys)] = text
        return copy
      }
      container.x = text
      return copy
    case 1:
      container[text] = 1
      return copy
    case 2:
      container[pick(g, ['nested', ...keys])] = { list: [1, { deep: [text] }] }
      return copy
    case 3:
      container[pick(g, ['links', 'list', ...keys])] = [...Array(int(g, 0, 3)).fill('ok'), text]
      return copy
    default:
      container[pick(g, ['obj', ...keys])] = { [text]: text }
      return copy
  }
}

import type { FaultFamily } from './api-draft.ts'
import { BAD_PCT, UNDECODABLE } from './bad-values.ts'
import { chance, int, pick } from './draws.ts'
import type { Gen } from './fuzz-request.ts'

/** `text-path`, `undecodable-path`: a NUL or an escape that decodes to nothing in a path parameter. */
export const pathFault: FaultFamily = (g, fault, { values }, { params }) => {
  switch (fault) {
    case 'text-path': {
      const name = pick(g, params)
      const at = pick(g, ['start', 'end', 'only'])
      const nul = pick(g, BAD_PCT)
      values[name] =
        at === 'only' ? nul : at === 'start' ? `${nul}${values[name]}` : `${values[name]}${nul}`
      break
    }
    case 'undecodable-path':
      values[pick(g, params)] = pick(g, UNDECODABLE)
      break
  }
}

// Values a typed query parameter must refuse (or, for a free-text one, may take). The long and
// the undecodable ones are drawn even when not picked, as one draw each.
const wrongQueryValues = (g: Gen): string[] => [
  'abc',
  '-1',
  '0',
  '101',
  '1.5',
  '1e400',
  '99999999999999999999',
  '',
  '%20',
  'true',
  'x'.repeat(int(g, 10, 5000)),
  pick(g, UNDECODABLE),
  'null',
  '[]',
  '{}',
]

/** `text-query`, `query-types`: a NUL in a query name or value, or values of the wrong type. */
export const queryFault: FaultFamily = (g, fault, { search }, { queryParams }) => {
  switch (fault) {
    case 'text-query': {
      const names = ['x', 'cursor', 'q', ...queryParams.map((p) => p.name as string)]
      if (chance(g, 25)) search.push([pick(g, BAD_PCT), '1'])
      else search.push([pick(g, names), pick(g, BAD_PCT)])
      if (chance(g, 30)) search.push([pick(g, names), pick(g, UNDECODABLE)])
      break
    }
    case 'query-types': {
      const names = ['zzz', 'limit[]', ...queryParams.map((p) => p.name as string)]
      for (let i = int(g, 1, 3); i > 0; i--) {
        const value = pick(g, wrongQueryValues(g))
        search.push([pick(g, names), value])
      }
      break
    }
  }
}

import type { KindDescriptor } from '../../catalogue/kind.ts'
import { KINDS } from '../../catalogue/kinds.ts'
import { okrIndexRows } from './okr.index.ts'
import { summarizeOkr } from './okr.summary.ts'

/** The okr kind: its catalogue data and its parts. */
export const okrKind: KindDescriptor = {
  ...KINDS.okr,
  summarize: summarizeOkr,
  index: okrIndexRows,
}

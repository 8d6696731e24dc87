import type { KindDescriptor } from '../../catalogue/kind.ts'
import { KINDS } from '../../catalogue/kinds.ts'
import { listOkrs } from '../../graph/okrs/okrs.queries.ts'
import { okrIndexRows } from './okr.index.ts'
import { okrLinks } from './okr.links.ts'
import { okrList } from './okr.list.ts'
import { okrPage } from './okr.page.ts'
import { okrRecord } from './okr.record.ts'
import { summarizeOkr } from './okr.summary.ts'

/** The okr kind: its catalogue data and its parts. */
export const okrKind: KindDescriptor = {
  ...KINDS.okr,
  summarize: summarizeOkr,
  index: okrIndexRows,
  list: okrList,
  record: okrRecord,
  links: okrLinks,
  page: okrPage,
  names: (deps, caller, ids) => listOkrs(deps.db, caller.visibility, { ids }, null, ids.length),
}

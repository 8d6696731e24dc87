import type { KindDescriptor } from '../../catalogue/kind.ts'
import { KINDS } from '../../catalogue/kinds.ts'
import { checkinLinks } from './checkin.links.ts'
import { checkinPage } from './checkin.page.ts'
import { checkinRecord } from './checkin.record.ts'
import { summarizeCheckin } from './okr.summary.ts'

/** The checkin kind: its catalogue data and its parts. */
export const checkinKind: KindDescriptor = {
  ...KINDS.checkin,
  summarize: summarizeCheckin,
  record: checkinRecord,
  links: checkinLinks,
  page: checkinPage,
}

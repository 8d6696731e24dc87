import type { KindDescriptor } from '../../catalogue/kind.ts'
import { KINDS } from '../../catalogue/kinds.ts'
import { keyResultLinks } from './key-result.links.ts'
import { keyResultPage } from './key-result.page.ts'
import { keyResultRecord } from './key-result.record.ts'
import { summarizeKeyResult } from './okr.summary.ts'

/** The key result kind: its catalogue data and its parts. */
export const keyResultKind: KindDescriptor = {
  ...KINDS.key_result,
  summarize: summarizeKeyResult,
  record: keyResultRecord,
  links: keyResultLinks,
  page: keyResultPage,
}

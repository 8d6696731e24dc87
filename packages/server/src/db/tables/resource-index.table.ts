import type { Computed, Timestamp } from './columns.ts'

/** The name of a kind that has a row in the resource index (catalogue/kinds.ts, `indexed`). */
export type IndexedKind = string

/** `resource_index`: who may open each resource, and its own searchable text. */
export interface ResourceIndexTable {
  workspace_id: string
  id: string
  type: IndexedKind
  project_id: string | null
  title: string
  body: string
  ws_visible: boolean
  acl: string[]
  created_at: Timestamp
  updated_at: Timestamp
  tsv: Computed<string>
}

/** `title_words`: the words of the index's titles, which typo tolerance compares a word with. */
export interface TitleWordsTable {
  workspace_id: string
  word: string
}

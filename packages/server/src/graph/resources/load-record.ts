import Type, { type Static, type TSchema } from 'typebox'
import type { Caller } from '../../access/caller.ts'
import type { AppDeps } from '../../app-deps.ts'
import { kindOfId, kindsWith } from '../../catalogue/catalogue.ts'
import type { AnyRecordSchema } from './any-record.schema.ts'

/** Any built-in resource record, as `GET /v1/resources/:id` returns it. */
export type AnyRecord = Static<typeof AnyRecordSchema>

/** How a kind's record is read: the one `GET /v1/resources/:id` answers with. */
export interface RecordPart {
  /** The record's schema, named by its `title`; `type` is the kind's name. */
  readonly schema: TSchema
  /**
   * The record of a resource of this kind that the caller may open; null for ids that are
   * unknown, malformed, of another workspace or hidden (all the same to the caller). Each loader
   * applies the visibility filter in its own query.
   */
  load(deps: AppDeps, caller: Caller, id: string): Promise<AnyRecord | null>
}

declare module '../../catalogue/kind.ts' {
  interface KindParts {
    /** Its record (`GET /v1/resources/:id`, MCP `fetch`, the dashboard's page). */
    record: RecordPart
  }
}

/** A kind's own list query, narrowed to `ids`: the rows among them that the caller may open. */
export type ListByIds<Row> = (deps: AppDeps, caller: Caller, ids: string[]) => Promise<Row[]>

/** The record part of a kind read through its list query: the id's one row, presented. */
export function recordFromList<Row>(
  schema: TSchema,
  byIds: ListByIds<Row>,
  present: (row: Row, deps: AppDeps, caller: Caller) => AnyRecord,
): RecordPart {
  return {
    schema,
    async load(deps, caller, id) {
      const [row] = await byIds(deps, caller, [id])
      return row ? present(row, deps, caller) : null
    },
  }
}

/** The record of any resource the caller may open, by the kind its id names; null otherwise. */
export async function loadRecord(
  deps: AppDeps,
  caller: Caller,
  id: string,
): Promise<AnyRecord | null> {
  const kind = kindOfId(id)
  return kind?.record ? kind.record.load(deps, caller, id) : null
}

/** The schema of any record: every kind's, told apart by `type` (read when routes are built). */
export function anyRecordSchema(): TSchema {
  return Type.Union(
    kindsWith('record').map((kind) => kind.record.schema),
    { title: 'AnyRecord' },
  )
}

import { html } from 'ghtml'
import { type Kysely, sql } from 'kysely'
import Type from 'typebox'
import { type IndexRows, onlyIds } from '../../src/access/resource-index.ts'
import type { Visibility } from '../../src/access/visibility.ts'
import { defineKind, kindNamed } from '../../src/catalogue/catalogue.ts'
import type { KindDescriptor } from '../../src/catalogue/kind.ts'
import type { Database } from '../../src/db/database.ts'
import type { AnyRecord, RecordPart } from '../../src/graph/resources/load-record.ts'
import type { ListSource } from '../../src/mcp/tools/list-source.ts'
import { SummaryBuilder } from '../../src/summaries/summary-builder.ts'
import type { OwnPage } from '../../src/web/page-view.ts'

/**
 * What a new kind's migration does, done by the test: the table its resources live in, and its
 * name among the kinds the resource index admits.
 */
export async function createGadgetTable(db: Kysely<Database>): Promise<void> {
  await sql`alter table resource_index drop constraint resource_index_type_check,
    add constraint resource_index_type_check
      check (type in ('project', 'canvas', 'task', 'okr', 'comment', 'gadget'))`.execute(db)
  await sql`create table gadgets (
    workspace_id text not null, id text not null, project_id text not null,
    title text not null, notes text not null,
    created_at timestamptz not null, updated_at timestamptz not null,
    primary key (workspace_id, id))`.execute(db)
}

interface GadgetRow {
  id: string
  project_id: string
  title: string
  notes: string
  created_at: Date
}

// The gadgets of a workspace the viewer may open, through the one visibility test.
async function visibleGadgets(
  db: Kysely<Database>,
  visibility: Visibility,
  options: { id?: string; after?: readonly [string, string] | null; limit: number },
): Promise<GadgetRow[]> {
  const ws = visibility.principal.workspaceId
  const rows = await sql<GadgetRow>`
    select g.id, g.project_id, g.title, g.notes, g.created_at from gadgets g
    join resource_index r on r.workspace_id = g.workspace_id and r.id = g.id
    where g.workspace_id = ${ws} and ${visibility.row('r')}
      ${options.id === undefined ? sql`` : sql`and g.id = ${options.id}`}
      ${options.after ? sql`and (g.created_at, g.id) < (${options.after[0]}::timestamptz, ${options.after[1]})` : sql``}
    order by g.created_at desc, g.id desc limit ${options.limit}`.execute(db)
  return rows.rows
}

/** A gadget's record: what `GET /v1/resources/:id` answers with. */
const GadgetRecord = Type.Object(
  {
    id: Type.String(),
    type: Type.Literal('gadget'),
    title: Type.String(),
    notes: Type.String(),
    project_id: Type.String(),
    url: Type.String(),
  },
  { title: 'GadgetRecord' },
)

const record: RecordPart = {
  schema: GadgetRecord,
  async load(deps, caller, id) {
    const [row] = await visibleGadgets(deps.db, caller.visibility, { id, limit: 1 })
    if (!row) return null
    const { url } = deps.urls.resource(caller.principal.workspaceId, 'gadget', row.id)
    const gadget = { id: row.id, type: 'gadget', title: row.title, notes: row.notes, url }
    // The dashboard's views type the built-in kinds' records; a kind of its own has its own.
    return { ...gadget, project_id: row.project_id } as unknown as AnyRecord
  },
}

// A gadget follows its project: open to the workspace when the project is, else to its members.
const index: IndexRows = {
  titled: true,
  rows: (ws, ids) => sql`select g.workspace_id, g.id, 'gadget', g.project_id, g.title, g.notes,
      p.visibility = 'workspace', array[g.project_id], g.created_at, g.updated_at
    from gadgets g join projects p on p.workspace_id = g.workspace_id and p.id = g.project_id
    where g.workspace_id = ${ws} ${onlyIds(sql.ref('g.id'), ids)}`,
}

const list: ListSource = {
  filters: [],
  references: () => [],
  async load(session, _filters, after, limit) {
    const { db, urls } = session.deps
    const ws = session.caller.principal.workspaceId
    const rows = await visibleGadgets(db, session.caller.visibility, {
      after: after as [string, string] | null,
      limit: limit + 1,
    })
    return rows.map((row) => ({
      id: row.id,
      type: 'gadget',
      title: row.title,
      url: urls.resource(ws, 'gadget', row.id).url,
      facts: {},
      position: [row.created_at.toISOString(), row.id],
    }))
  },
}

const page: OwnPage = {
  content: (shown) => {
    const gadget = shown as unknown as { title: string; notes: string }
    return { title: gadget.title, body: html`<p class="body-text">${gadget.notes}</p>` }
  },
}

/** Adds the gadget's parts: an index rule, a record, a summary, a list source and a page. */
export function defineGadgetParts(): void {
  const parts: Partial<KindDescriptor> = {
    index,
    record,
    list,
    page,
    async summarize(ctx, id) {
      const [row] = await visibleGadgets(ctx.db, ctx.visibility, { id, limit: 1 })
      if (!row) return null
      const b = new SummaryBuilder()
      b.say`A gadget whose notes read: ${row.notes}.`
      return { type: 'gadget', title: row.title, builder: b }
    },
  }
  defineKind({ ...(kindNamed('gadget') as KindDescriptor), ...parts })
}

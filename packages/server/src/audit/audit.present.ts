import type { Static } from 'typebox'
import { namesAuditedResource } from '../access/audit-visibility.ts'
import type { AuditRow } from './audit.queries.ts'
import type { AuditRecord } from './audit.schemas.ts'
import type { FieldDiff } from './json-diff.ts'

/** Every id an audit page may show (subjects, and ids inside diffs), for `openInAudit` to judge. */
export function idsShownBy(rows: readonly AuditRow[]): string[] {
  return rows.flatMap((row) => [
    ...(row.resource_id ? [row.resource_id] : []),
    ...Object.values(row.diff).flatMap(({ from, to }) => [from, to].flatMap(idsIn)),
  ])
}

/**
 * An audit entry as its reader may see it. About a resource the reader may not open now, it keeps
 * the action, who, through which token and app, when, the resource's type and the names of the
 * changed fields, and withholds the id and every value (`redacted`). Otherwise the diff is shown,
 * without the ids of neighbours the reader may not open (a field that then shows no change goes).
 */
export function presentAuditEntry(
  row: AuditRow,
  open: ReadonlySet<string>,
): Static<typeof AuditRecord> {
  const redacted = row.resource_id !== null && !open.has(row.resource_id)
  const diff = redacted ? null : withheld(row.diff, open)
  return {
    id: row.id,
    action: row.action,
    actor_id: row.actor_id,
    token_id: row.token_id,
    token_kind: row.token_kind,
    client_id: row.client_id,
    resource_id: redacted ? null : row.resource_id,
    resource_type: row.resource_type,
    redacted,
    changed_fields: Object.keys(diff ?? row.diff).sort(),
    diff,
    request_id: row.request_id,
    ip: row.ip,
    user_agent: row.user_agent,
    via: row.via,
    created_at: row.created_at.toISOString(),
  }
}

function idsIn(value: unknown): string[] {
  if (Array.isArray(value)) return value.filter(namesAuditedResource)
  return namesAuditedResource(value) ? [value] : []
}

function withheld(
  diff: Record<string, FieldDiff>,
  open: ReadonlySet<string>,
): Record<string, FieldDiff> {
  const hide = (value: unknown): unknown => {
    if (Array.isArray(value))
      return value.filter((item) => !namesAuditedResource(item) || open.has(item))
    return namesAuditedResource(value) && !open.has(value) ? null : value
  }
  const shown: Record<string, FieldDiff> = {}
  for (const [field, change] of Object.entries(diff)) {
    const from = hide(change.from)
    const to = hide(change.to)
    if (JSON.stringify(from) !== JSON.stringify(to)) shown[field] = { from, to }
  }
  return shown
}

import type { CredentialCheck } from './credential-check.ts'
import type { IndexCheck } from './index-check.ts'

/** One table's rows on both sides. */
export interface TableComparison {
  readonly table: string
  readonly source_rows: number
  readonly target_rows: number
  readonly checksums_match: boolean
}

/** One sequence's position on both sides. */
export interface SequenceComparison {
  readonly sequence: string
  readonly source: string
  readonly target: string
}

/** What a move copied and what its verification found; `--json` prints it as it is. */
export interface MoveReport {
  readonly source: string
  readonly target: string
  readonly tables: readonly TableComparison[]
  readonly sequences: readonly SequenceComparison[]
  readonly search_index: IndexCheck
  readonly credentials: CredentialCheck
  /** Each check that failed, in words; empty when the copy is verified. */
  readonly failures: readonly string[]
  /** Whether the copy was committed: every check passed. */
  readonly verified: boolean
}

/** The checks that failed, in words, from a report's figures. */
export function failuresOf(report: Omit<MoveReport, 'failures' | 'verified'>): string[] {
  const failures: string[] = []
  for (const table of report.tables) {
    if (table.source_rows !== table.target_rows)
      failures.push(
        `${table.table}: ${table.source_rows} rows in the embedded database, ${table.target_rows} in PostgreSQL`,
      )
    else if (!table.checksums_match)
      failures.push(`${table.table}: the same number of rows, but their contents differ`)
  }
  for (const sequence of report.sequences)
    if (sequence.source !== sequence.target)
      failures.push(
        `sequence ${sequence.sequence}: ${sequence.source} before, ${sequence.target} after`,
      )
  const index = report.search_index
  if (!index.rebuiltSame)
    failures.push(
      'the search index compiled again from the moved rows differs from the moved index',
    )
  if (!index.vocabularyComplete)
    failures.push('the search vocabulary lacked words of the moved titles')
  const credentials = report.credentials
  if (credentials.keysAlike !== credentials.keys)
    failures.push(
      `${credentials.keys - credentials.keysAlike} of ${credentials.keys} API keys and workspace tokens resolve differently`,
    )
  if (credentials.passwordsAlike !== credentials.passwords)
    failures.push(
      `${credentials.passwords - credentials.passwordsAlike} of ${credentials.passwords} passwords sign in differently`,
    )
  const secrets = credentials.webhookSecrets
  if (secrets && secrets.opened !== secrets.sealed)
    failures.push(
      `${secrets.sealed - secrets.opened} of ${secrets.sealed} webhook signing secrets do not open with the server's secret`,
    )
  return failures
}

/** The report in a few lines for a terminal. */
export function reportText(report: MoveReport): string {
  const rows = report.tables.reduce((sum, table) => sum + table.source_rows, 0)
  const tablesMatch = report.tables.filter(
    (t) => t.source_rows === t.target_rows && t.checksums_match,
  ).length
  const { search_index: index, credentials } = report
  const secrets = credentials.webhookSecrets
  const mark = (ok: boolean) => (ok ? 'ok    ' : 'FAILED')
  const lines = [
    `${report.verified ? 'Moved' : 'Did not move'} the ${report.source} to ${report.target}.`,
    `  tables     ${mark(tablesMatch === report.tables.length)}  ${tablesMatch} of ${report.tables.length} with the same row count and checksum (${rows} rows)`,
    `  sequences  ${mark(report.sequences.every((s) => s.source === s.target))}  ${report.sequences.length} at the same position`,
    `  search     ${mark(index.rebuiltSame && index.vocabularyComplete)}  ${index.rows} index rows, compiled again on PostgreSQL: ${index.rebuiltSame ? 'the same' : 'different'}; vocabulary ${index.vocabularyComplete ? 'complete' : 'incomplete'}`,
    `  keys       ${mark(credentials.keysAlike === credentials.keys)}  ${credentials.keysAlike} of ${credentials.keys} API keys and workspace tokens resolve as before`,
    `  passwords  ${mark(credentials.passwordsAlike === credentials.passwords)}  ${credentials.passwordsAlike} of ${credentials.passwords} emails sign in with the same password`,
    secrets
      ? `  webhooks   ${mark(secrets.opened === secrets.sealed)}  ${secrets.opened} of ${secrets.sealed} signing secrets open with the server's secret`
      : "  webhooks   --      signing secrets not checked: no server secret (WORKGRAPH_SECRET, or the folder's secret file)",
  ]
  if (report.verified)
    lines.push(
      '',
      'The embedded folder is unchanged. Start the servers with DATABASE_URL set to the target and',
      'WORKGRAPH_SECRET set to the embedded server\'s secret (docs/operations.md, "Moving to PostgreSQL").',
    )
  else
    lines.push(
      '',
      ...report.failures.map((failure) => `  - ${failure}`),
      '',
      'Nothing was committed: PostgreSQL holds the schema and no rows. The embedded folder is unchanged.',
    )
  return `${lines.join('\n')}\n`
}

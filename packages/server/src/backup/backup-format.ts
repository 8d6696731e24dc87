import { closeSync, openSync, readSync } from 'node:fs'

/** What a backup file holds: the embedded database's files, or a PostgreSQL custom-format dump. */
export type BackupFormat = 'embedded' | 'postgres'

// An embedded backup is gzip (RFC 1952: 1f 8b); pg_dump's custom format starts with "PGDMP".
const GZIP = Buffer.from([0x1f, 0x8b])
const PG_CUSTOM = Buffer.from('PGDMP')

/** The format of a backup by its first bytes, or null when it is neither. */
export function backupFormatOf(head: Buffer): BackupFormat | null {
  if (head.subarray(0, GZIP.length).equals(GZIP)) return 'embedded'
  if (head.subarray(0, PG_CUSTOM.length).equals(PG_CUSTOM)) return 'postgres'
  return null
}

/** The first bytes of a file, enough to tell its format; throws the system's error (ENOENT…). */
export function readHead(file: string): Buffer {
  const fd = openSync(file, 'r')
  try {
    const head = Buffer.alloc(8)
    const read = readSync(fd, head, 0, head.length, 0)
    return head.subarray(0, read)
  } finally {
    closeSync(fd)
  }
}

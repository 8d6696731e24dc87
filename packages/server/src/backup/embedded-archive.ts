import { promisify } from 'node:util'
import { gunzip, gzip } from 'node:zlib'

const gzipAsync = promisify(gzip)
const gunzipAsync = promisify(gunzip)

/** A file that is not a readable backup of an embedded database; the message says why. */
export class NotABackupError extends Error {}

/**
 * An embedded backup's bytes: PGlite's tar of the database's files (`dumpDataDir('none')`),
 * compressed here rather than by PGlite, so that the database is held only while the files are
 * read, not while they are compressed (zlib works off the main thread).
 */
export async function packEmbeddedArchive(tar: Buffer): Promise<Buffer> {
  return gzipAsync(tar)
}

/**
 * The tar inside an embedded backup, checked before anything is written from it: gzip that
 * decompresses whole (its length and CRC are checked), then tar entries that hold the database's
 * `PG_VERSION` at the top.
 */
export async function unpackEmbeddedArchive(archive: Buffer): Promise<Buffer> {
  let tar: Buffer
  try {
    tar = await gunzipAsync(archive)
  } catch (error) {
    throw new NotABackupError(
      `it is not whole gzip (${(error as Error).message}): a truncated or damaged copy`,
    )
  }
  const names = tarNames(tar)
  if (!names.some((name) => name.replace(/^\.?\//, '') === 'PG_VERSION'))
    throw new NotABackupError('it holds no database files (no PG_VERSION)')
  return tar
}

const BLOCK = 512

// The names of a tar's entries (ustar headers), or a NotABackupError when a header is not one.
function tarNames(tar: Buffer): string[] {
  const names: string[] = []
  for (let offset = 0; offset + BLOCK <= tar.length; ) {
    const header = tar.subarray(offset, offset + BLOCK)
    // Two zero blocks end an archive; one is enough to stop reading.
    if (header.every((byte) => byte === 0)) break
    if (header.subarray(257, 262).toString('latin1') !== 'ustar')
      throw new NotABackupError('it is not a tar archive of database files')
    const name = cString(header.subarray(0, 100))
    const prefix = cString(header.subarray(345, 500))
    const size = Number.parseInt(cString(header.subarray(124, 136)).trim() || '0', 8)
    if (!Number.isFinite(size) || size < 0)
      throw new NotABackupError('a tar entry has no readable size')
    names.push(prefix ? `${prefix}/${name}` : name)
    offset += BLOCK + Math.ceil(size / BLOCK) * BLOCK
  }
  return names
}

function cString(field: Buffer): string {
  const end = field.indexOf(0)
  return field.subarray(0, end < 0 ? field.length : end).toString('utf8')
}

import { createHash } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'

/**
 * A digest of a folder: every entry's path and kind, and every file's bytes, in name order. Equal
 * digests before and after a command show that it changed nothing in the folder (times aside).
 */
export function folderDigest(dir: string): string {
  const hash = createHash('sha256')
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true }).sort((a, b) =>
      a.name < b.name ? -1 : 1,
    )) {
      const path = join(folder, entry.name)
      hash.update(
        `${relative(dir, path)}\0${entry.isDirectory() ? 'd' : entry.isFile() ? 'f' : 'o'}\0`,
      )
      if (entry.isDirectory()) walk(path)
      else if (entry.isFile()) hash.update(readFileSync(path))
    }
  }
  walk(dir)
  return hash.digest('hex')
}
